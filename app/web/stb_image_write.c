// stb_image_write's code for the web build: the desktop build links Debian's libstb, which has no wasm build.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
