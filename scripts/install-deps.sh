#!/usr/bin/env bash
# The single place that says what Lagrange Lab needs from Debian. Idempotent: installs only what is missing.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config python3
  # compiles through ccache: an unchanged source is not compiled again, in this clone or another (CMakeLists.txt)
  ccache
  libsdl2-dev libimgui-dev python3-glad libglm-dev doctest-dev libstb-dev nlohmann-json3-dev libeigen3-dev
  # CHOLMOD's nested dissection (SuiteSparse, with METIS): the fill-reducing order of large sheets (sparse_ldu.cpp)
  libsuitesparse-dev
  # Mesa's software OpenGL, so the window, screenshots and GUI tests work with no GPU and no display
  libgl1-mesa-dri libegl1-mesa-dev xvfb
  # the random-input GUI test: real X pointer and key events into the window under Xvfb (skipped when absent)
  xdotool
  # the scene-loader fuzz target (scripts/fuzz.sh): clang and its libFuzzer + sanitizer runtimes
  clang libclang-rt-14-dev
  # recording videos (record, the window's Record): FFmpeg's libraries for H.264 MP4s (libx264) and GIFs
  # ffmpeg's ffprobe and ffmpeg read the recordings back in the tests
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev ffmpeg
  # GIF encoding in process (app/capture/gif_encoder.cpp: the page's recordings; its tests decode with giflib's DGif*)
  libgif-dev
  # the sandbox's UI font (DejaVu Sans: crisp at every HiDPI scale; ImGui's built-in bitmap font is the fallback)
  fonts-dejavu-core
  # the Python package (python/, docs/python.md): pybind11 against NumPy for Debian's /usr/bin/python3; its tests
  # (pytest), the notebooks of examples/ run by nbclient on an ipykernel with Matplotlib, sweeps on Dask
  pybind11-dev python3-dev python3-numpy python3-pytest python3-nbclient python3-nbformat python3-ipykernel
  python3-matplotlib python3-distributed
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages already installed"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
