#!/usr/bin/env bash
# The browser version: builds the sandbox for WebAssembly + WebGL2 into build-web/site/ (docs/web.md).
#   scripts/web.sh            install what is missing, build SDL2 and Dear ImGui for wasm once (cached), build the page
#   scripts/web.sh --serve    ...then serve build-web/site on http://127.0.0.1:PORT/ (PORT: $PORT or 8080)
#   scripts/web.sh --test     ...then run tests/web/page_test.py (the page in headless Chromium)
#   scripts/web.sh --bench    ...also build the command line for node and compare its `bench` with the native build's
#   scripts/web.sh --deps     only install and build the cached dependencies
# Everything comes from Debian: emscripten, and the source packages of SDL2, Dear ImGui and giflib (fetched with
# `apt-get source` into the cache folder, never into the source tree). Nothing is downloaded at build time.
# The cache: $LAGRANGE_WEB_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/lagrange-lab-web. Delete it to rebuild.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${LAGRANGE_WEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lagrange-lab-web}"
build="${BUILD_WEB_DIR:-$root/build-web}"
jobs="${JOBS:-2}"
serve=0 deps_only=0 test=0 bench=0
for arg in "$@"; do
  case "$arg" in
    --serve) serve=1 ;;
    --deps) deps_only=1 ;;
    --test) test=1 ;;
    --bench) bench=1 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "web.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

# --- Debian packages: the compiler, the header-only libraries, chromium for tests/web/page_test.py
packages=(emscripten dpkg-dev cmake ninja-build python3 libglm-dev nlohmann-json3-dev libeigen3-dev libstb-dev
          fonts-dejavu-core chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "web.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# NodeSource's node does not look in Debian's module folder (emscripten's tools need acorn from there).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
mkdir -p "$cache"

# --- Source packages: a deb-src entry for the mirror apt already uses, then `apt-get source` into the cache.
fetch_source() {  # fetch_source PACKAGE GLOB -> prints the unpacked folder
  local package="$1" glob="$2" dir
  dir="$(find "$cache/src" -maxdepth 1 -type d -name "$glob" 2>/dev/null | sort | tail -n 1)"
  if [ -z "$dir" ]; then
    local uris
    uris="$(apt-get source --print-uris -qq "$package" 2>/dev/null || true)"
    if [[ "$uris" != *.dsc* ]]; then
      local list=/etc/apt/sources.list.d/lagrange-lab-src.sources uri suite
      uri="$(grep -h -m1 '^URIs:' /etc/apt/sources.list.d/debian.sources 2>/dev/null | awk '{print $2}')"
      suite="$(. /etc/os-release && echo "$VERSION_CODENAME")"
      echo "web.sh: adding a deb-src entry ($list) for ${uri:-http://deb.debian.org/debian} $suite" >&2
      printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "${uri:-http://deb.debian.org/debian}" "$suite" | $sudo tee "$list" >/dev/null
      $sudo apt-get update -qq
    fi
    mkdir -p "$cache/src"
    (cd "$cache/src" && apt-get source -qq "$package" >&2)
    dir="$(find "$cache/src" -maxdepth 1 -type d -name "$glob" | sort | tail -n 1)"
  fi
  [ -n "$dir" ] || { echo "web.sh: could not get the source of $package" >&2; exit 1; }
  echo "$dir"
}

# compile_library PREFIX LIB COMPILER FLAGS... -- SOURCE_DIR FILE...: each FILE compiled at -O2 into PREFIX/obj, then
# archived as PREFIX/lib/LIB (PREFIX is made anew; PREFIX/include is left for the headers).
compile_library() {
  local prefix="$1" lib="$2" compiler="$3" flags=() objects=() f o
  shift 3
  while [ "$1" != "--" ]; do flags+=("$1"); shift; done
  local src="$2"
  shift 2
  rm -rf "$prefix"
  mkdir -p "$prefix/obj" "$prefix/lib" "$prefix/include"
  for f in "$@"; do
    o="$prefix/obj/$(basename "${f%.*}").o"
    nice -n 19 "$compiler" -O2 "${flags[@]}" -c "$src/$f" -o "$o"
    objects+=("$o")
  done
  emar rcs "$prefix/lib/$lib" "${objects[@]}"
}

# --- SDL2, static, for Emscripten (its own CMake build; -sUSE_SDL=2 would download a port)
sdl_prefix="$cache/sdl2"
if [ ! -f "$sdl_prefix/lib/libSDL2.a" ]; then
  sdl_src="$(fetch_source libsdl2 'libsdl2-2*')"
  echo "web.sh: building SDL2 for wasm from $sdl_src (a few minutes, once)"
  start=$SECONDS
  rm -rf "$cache/sdl2-build"
  nice -n 19 emcmake cmake -S "$sdl_src" -B "$cache/sdl2-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DCMAKE_INSTALL_PREFIX="$sdl_prefix" >"$cache/sdl2-build.log" 2>&1 \
    || { tail -n 30 "$cache/sdl2-build.log"; exit 1; }
  nice -n 19 cmake --build "$cache/sdl2-build" -j "$jobs" >>"$cache/sdl2-build.log" 2>&1 \
    && cmake --install "$cache/sdl2-build" >>"$cache/sdl2-build.log" 2>&1 || { tail -n 30 "$cache/sdl2-build.log"; exit 1; }
  echo "web.sh: SDL2 built in $((SECONDS - start)) s"
fi

# --- Dear ImGui with its SDL2 and OpenGL3 (GLES3 / WebGL2) backends, as one static library
imgui_prefix="$cache/imgui"
if [ ! -f "$imgui_prefix/lib/libimgui.a" ]; then
  imgui_src="$(fetch_source imgui 'imgui-*')"
  echo "web.sh: building Dear ImGui for wasm from $imgui_src"
  start=$SECONDS
  compile_library "$imgui_prefix" libimgui.a em++ -DIMGUI_IMPL_OPENGL_ES3 -I"$imgui_src" -I"$sdl_prefix/include/SDL2" \
    -- "$imgui_src" imgui.cpp imgui_draw.cpp imgui_tables.cpp imgui_widgets.cpp imgui_demo.cpp \
       backends/imgui_impl_sdl.cpp backends/imgui_impl_opengl3.cpp
  mkdir -p "$imgui_prefix/include/backends"
  cp "$imgui_src"/imgui.h "$imgui_src"/imconfig.h "$imgui_src"/imgui_internal.h "$imgui_src"/imstb_*.h \
     "$imgui_prefix/include/"
  cp "$imgui_src"/backends/imgui_impl_sdl.h "$imgui_src"/backends/imgui_impl_opengl3.h \
     "$imgui_src"/backends/imgui_impl_opengl3_loader.h "$imgui_prefix/include/backends/" 2>/dev/null || \
  cp "$imgui_src"/backends/imgui_impl_sdl.h "$imgui_src"/backends/imgui_impl_opengl3.h "$imgui_prefix/include/backends/"
  echo "web.sh: Dear ImGui built in $((SECONDS - start)) s"
fi

# --- giflib (the page's GIF recordings: app/capture/gif_encoder.cpp), the library's C files only (not its utilities)
giflib_prefix="$cache/giflib"
if [ ! -f "$giflib_prefix/lib/libgif.a" ]; then
  giflib_src="$(fetch_source giflib 'giflib-*')"
  echo "web.sh: building giflib for wasm from $giflib_src"
  start=$SECONDS
  compile_library "$giflib_prefix" libgif.a emcc -I"$giflib_src" -- "$giflib_src" \
    dgif_lib.c egif_lib.c gifalloc.c gif_err.c gif_font.c gif_hash.c openbsd-reallocarray.c quantize.c
  cp "$giflib_src"/gif_lib.h "$giflib_prefix/include/"
  echo "web.sh: giflib built in $((SECONDS - start)) s"
fi

# --- Header-only libraries: a folder of links to their include folders (never -I/usr/include: host C headers)
headers="$cache/headers"
mkdir -p "$headers"
ln -sfn /usr/include/glm "$headers/glm"
ln -sfn /usr/include/nlohmann "$headers/nlohmann"
ln -sfn /usr/include/eigen3/Eigen "$headers/Eigen"
ln -sfn /usr/include/stb "$headers/stb"
# The UI font, preloaded into the page's file system at the path the desktop build reads it from.
[ "$deps_only" -eq 1 ] && { echo "web.sh: dependencies ready in $cache"; exit 0; }

# --- The page
start=$SECONDS
# Through ccache when it is installed (as the desktop build: CMakeLists.txt): emcc runs clang under the wrapper.
if command -v ccache >/dev/null; then
  export EM_COMPILER_WRAPPER=ccache CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
fi
nice -n 19 emcmake cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLAGRANGE_WEB_DEPS="$cache" >"$cache/configure-page.log" 2>&1 || { tail -n 40 "$cache/configure-page.log"; exit 1; }
# The page only; the command line under node (build-web/node, for --bench) is not part of the site.
targets=(lagrange-lab-web)
[ "$bench" -eq 1 ] && targets+=(lagrange-lab-node lagrange-lab-bench)
nice -n 19 cmake --build "$build" -j "$jobs" --target "${targets[@]}"
echo "web.sh: page built in $((SECONDS - start)) s: $build/site/"
ls -l "$build/site/"

if [ "$test" -eq 1 ]; then
  python3 "$root/tests/web/page_test.py" "$build/site"
fi
if [ "$bench" -eq 1 ]; then
  [ -x "$root/build/app/lagrange-lab" ] || "$root/scripts/build.sh"
  python3 "$root/scripts/web_bench.py" "$root/build/app/lagrange-lab" "$build/node/lagrange-lab.js" "$build/bench"
fi
if [ "$serve" -eq 1 ]; then
  port="${PORT:-8080}"
  echo "web.sh: serving $build/site on http://127.0.0.1:$port/ (Ctrl-C stops)"
  exec python3 -m http.server --bind 127.0.0.1 --directory "$build/site" "$port"
fi
