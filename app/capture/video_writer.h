// Encoding RGBA frames into an MP4 (H.264 through libx264) or a GIF, in memory. The encoder is the build's
// (video_encoder.h: open_encoder): on the desktop FFmpeg, MP4 and GIF (a palette made from every frame, two passes,
// in memory that does not grow with the clip);
// in the page giflib, GIF only (gif_encoder.h: a palette per frame, one pass).
// No UI dependency: frames are plain RGBA rows. Nothing is written to any file here: finish() hands back the whole
// file's bytes, and the caller writes them through io::OutputFile (capture/output_file.h), so a recording that fails
// half-way leaves no partial file and never touches the previous one.
//
// Timing: frame k has the timestamp k / fps exactly (the codec's time base is 1/fps). A GIF's delays are whole
// centiseconds: frame k is shown from round(100 k / fps) cs on, so for an fps that does not divide 100 the delays
// alternate (30 fps: 3, 4, 3, 3, 4, 3 cs ...) and the total stays right to within 1 cs; the last frame keeps the delay
// before it. Browsers slow down delays under 2 cs, so a GIF above 50 fps plays slower than it should there; above
// 100 fps two frames would fall on one centisecond, so each frame is given at least 1 cs (all frames are kept, and
// the GIF itself plays slower than real time). (The page's encoder, gif_encoder.h, shows the last frame until
// round(100 n / fps) instead: the total is then the duration to within 0.5 cs at any rate up to 100 fps, where
// "the delay before it" can be 1.5 cs off, e.g. at 24 fps.)
//
// MP4: yuv420p (BT.709, limited range, tagged so), so width and height must be even; libx264 with a fixed preset,
// CRF and thread count, so the same frames give the same bytes on every machine with the same FFmpeg and x264
// (x264 is deterministic for a given thread count); the index (moov) is moved to the front (+faststart), so the file
// plays while it downloads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lagrange::video {

enum class Format { Mp4, Gif };

// "h264" or "gif": the codec, as ffprobe names it.
const char* codec_name(Format format);
// The format for a file name's extension (.mp4, .gif; any case); nothing for anything else.
std::optional<Format> format_for_path(std::string_view path);
// "mp4" / "gif" → the format; nothing for anything else.
std::optional<Format> parse_format(std::string_view name);

// Something FFmpeg refused: what() names the output and FFmpeg's reason. (Out of memory is std::bad_alloc.)
class VideoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct VideoSpec {
  Format format = Format::Mp4;
  int width = 0, height = 0;  // pixels; even for MP4
  int fps = 30;               // 1..120
  // MP4 only: x264's preset and constant rate factor (0 lossless .. 51; 18-23 looks like the original), and its
  // thread count: fixed rather than one per core, because x264's output can depend on it (the same 60 frames gave
  // the same bytes with 1, 2 and 4 threads, and other bytes with 8).
  const char* preset = "veryfast";
  int crf = 20;
  int threads = 2;
};

// "" when `spec` can be encoded, else why not (an odd size for MP4, an fps out of 1..120, a size out of 16..8192).
std::string check_spec(const VideoSpec& spec);

class Encoder;  // video_encoder.h: the encoder side (FFmpeg in a module on the desktop, giflib in the page)

class VideoWriter {
 public:
  // Opens the encoder (the build's: FFmpeg's encoder and muxer, loaded now, or giflib: video_encoder.h). `name` is
  // the output's name in messages.
  // Throws VideoError (check_spec's reasons, FFmpeg's, a module that cannot be loaded), std::bad_alloc.
  VideoWriter(const VideoSpec& spec, std::string name);
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  // How many times the caller hands over the same frames: 1 for MP4 and the page's GIF; 2 for FFmpeg's GIF, whose
  // palette is made from every frame before the first one can be written (the first pass only counts colours into a
  // fixed histogram: nothing is kept of the frames, so memory does not grow with the length; the caller renders them
  // again, which a deterministic recording allows, instead of keeping ~1 GB of RGBA for 10 s at 1280x720).
  int passes() const;
  // The next frame: width × height RGBA pixels, rows top to bottom, `stride` bytes apart (0: width × 4).
  void add_frame(const std::uint8_t* rgba, std::size_t stride = 0);
  // Ends a pass that is not the last (GIF: makes the palette). The next pass must hand over as many frames.
  void next_pass();
  // Flushes the encoder and closes the file: its bytes. Throws VideoError.
  std::string finish();

  // Frames handed over in the current pass.
  long frames() const;
  const VideoSpec& spec() const;

 private:
  VideoSpec spec_;
  std::string name_;
  std::unique_ptr<Encoder> encoder_;
};

}  // namespace lagrange::video
