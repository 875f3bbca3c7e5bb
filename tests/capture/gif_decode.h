// Reading a GIF back with giflib's own decoder (DGifOpen + DGifSlurp), independent of the encoder under test: every
// image's rectangle, palette, transparency, disposal and delay, the loop extension, and the frames as a viewer shows
// them (each image drawn over the canvas left by the ones before: disposal "do not dispose", transparent pixels
// keep what was there).
#pragma once

#include <doctest/doctest.h>
#include <gif_lib.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace lagrange::test::gif {

struct Image {
  int left = 0, top = 0, width = 0, height = 0;
  int delay_cs = -1, transparent = -1, disposal = -1;
  int palette_size = 0;
};

struct Decoded {
  int width = 0, height = 0;
  bool loops_forever = false;               // NETSCAPE2.0 with a loop count of 0
  std::vector<Image> images;
  std::vector<std::vector<std::uint8_t>> frames;  // RGB, the canvas after each image
};

inline Decoded decode(const std::string& bytes) {
  struct Reader {
    const std::string* bytes;
    std::size_t at = 0;
  } reader{&bytes};
  const auto read = [](GifFileType* gif, GifByteType* out, int size) -> int {
    auto* r = static_cast<Reader*>(gif->UserData);
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(size), r->bytes->size() - r->at);
    std::memcpy(out, r->bytes->data() + r->at, n);
    r->at += n;
    return static_cast<int>(n);
  };
  int error = 0;
  GifFileType* gif = DGifOpen(&reader, read, &error);
  INFO("DGifOpen: " << (gif ? "" : GifErrorString(error)));
  REQUIRE(gif != nullptr);
  const int slurp = DGifSlurp(gif);
  INFO("DGifSlurp: " << GifErrorString(gif->Error));
  REQUIRE(slurp == GIF_OK);
  Decoded out;
  out.width = gif->SWidth;
  out.height = gif->SHeight;
  std::vector<std::uint8_t> canvas(static_cast<std::size_t>(out.width) * out.height * 3, 0);
  for (int i = 0; i < gif->ImageCount; ++i) {
    const SavedImage& saved = gif->SavedImages[i];
    for (int e = 0; e + 1 < saved.ExtensionBlockCount; ++e) {
      const ExtensionBlock& block = saved.ExtensionBlocks[e];
      const ExtensionBlock& next = saved.ExtensionBlocks[e + 1];
      if (block.Function == APPLICATION_EXT_FUNC_CODE && block.ByteCount == 11 &&
          std::memcmp(block.Bytes, "NETSCAPE2.0", 11) == 0 && next.Function == CONTINUE_EXT_FUNC_CODE &&
          next.ByteCount == 3 && next.Bytes[0] == 1 && next.Bytes[1] == 0 && next.Bytes[2] == 0)
        out.loops_forever = true;
    }
    Image image;
    image.left = saved.ImageDesc.Left;
    image.top = saved.ImageDesc.Top;
    image.width = saved.ImageDesc.Width;
    image.height = saved.ImageDesc.Height;
    GraphicsControlBlock control{};
    if (DGifSavedExtensionToGCB(gif, i, &control) == GIF_OK) {
      image.delay_cs = control.DelayTime;
      image.transparent = control.TransparentColor;
      image.disposal = control.DisposalMode;
    }
    const ColorMapObject* map = saved.ImageDesc.ColorMap ? saved.ImageDesc.ColorMap : gif->SColorMap;
    REQUIRE(map != nullptr);
    image.palette_size = map->ColorCount;
    // Only "do not dispose" (or none given) is composited here: what the encoder under test writes.
    REQUIRE((image.disposal == DISPOSE_DO_NOT || image.disposal == DISPOSAL_UNSPECIFIED));
    REQUIRE(image.left + image.width <= out.width);
    REQUIRE(image.top + image.height <= out.height);
    for (int y = 0; y < image.height; ++y)
      for (int x = 0; x < image.width; ++x) {
        const int index = saved.RasterBits[static_cast<std::size_t>(y) * image.width + x];
        if (index == image.transparent) continue;
        REQUIRE(index < map->ColorCount);
        std::uint8_t* p = &canvas[(static_cast<std::size_t>(image.top + y) * out.width + image.left + x) * 3];
        p[0] = map->Colors[index].Red;
        p[1] = map->Colors[index].Green;
        p[2] = map->Colors[index].Blue;
      }
    out.images.push_back(image);
    out.frames.push_back(canvas);
  }
  DGifCloseFile(gif, &error);
  return out;
}

}  // namespace lagrange::test::gif
