#include "capture/video_encoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

namespace lagrange::video {
namespace {

// --- FFmpeg's own objects, each freed by its own function ------------------------------------------------------------

struct FreeFormat {
  void operator()(AVFormatContext* p) const { avformat_free_context(p); }
};
struct FreeCodec {
  void operator()(AVCodecContext* p) const { avcodec_free_context(&p); }
};
struct FreeFrame {
  void operator()(AVFrame* p) const { av_frame_free(&p); }
};
struct FreePacket {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct FreeScaler {
  void operator()(SwsContext* p) const { sws_freeContext(p); }
};
struct FreeIo {
  void operator()(AVIOContext* p) const {
    if (!p) return;
    av_freep(&p->buffer);  // the buffer may have been replaced by avio: free the one it holds now
    avio_context_free(&p);
  }
};
using FormatPtr = std::unique_ptr<AVFormatContext, FreeFormat>;
using CodecPtr = std::unique_ptr<AVCodecContext, FreeCodec>;
using FramePtr = std::unique_ptr<AVFrame, FreeFrame>;
using PacketPtr = std::unique_ptr<AVPacket, FreePacket>;
using ScalerPtr = std::unique_ptr<SwsContext, FreeScaler>;
using IoPtr = std::unique_ptr<AVIOContext, FreeIo>;

// --- FFmpeg's messages: the last error it logged is added to ours (instead of going to stderr on its own) -----------

std::mutex g_log_mutex;
std::string g_last_log;  // the last message at AV_LOG_ERROR or worse

void on_log(void* context, int level, const char* format, va_list args) {
  if (level > AV_LOG_ERROR) return;
  char line[512];
  int prefix = 1;
  av_log_format_line(context, level, format, args, line, sizeof line, &prefix);
  std::string text = line;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  // "[libx264 @ 0x55d0c2a4c840] " → "libx264: "
  if (text.size() > 1 && text[0] == '[') {
    const auto at = text.find(" @ "), end = text.find("] ");
    if (at != std::string::npos && end != std::string::npos && at < end)
      text = text.substr(1, at - 1) + ": " + text.substr(end + 2);
  }
  const std::lock_guard<std::mutex> lock(g_log_mutex);
  g_last_log = std::move(text);
}

void install_log() {
  static std::once_flag once;
  std::call_once(once, [] {
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(on_log);
  });
}

std::string take_log() {
  const std::lock_guard<std::mutex> lock(g_log_mutex);
  std::string text = std::move(g_last_log);
  g_last_log.clear();
  return text;
}

std::string reason(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  std::string out = text;
  if (std::string log = take_log(); !log.empty()) out += " (" + log + ")";
  return out;
}

// --- an in-memory file: what the muxer writes, seekable (the MP4 index is written last and, for +faststart, moved
// to the front by reading the file back through io_open) -----------------------------------------------------------

struct MemoryFile {
  std::string bytes;
  std::int64_t position = 0;
  bool failed = false;  // out of memory inside a callback (nothing may be thrown through FFmpeg's C code)
};

struct Reader {  // a second, read-only cursor into the same bytes
  MemoryFile* file;
  std::int64_t position = 0;
};

int write_memory(void* opaque, std::uint8_t* data, int size) {
  auto& file = *static_cast<MemoryFile*>(opaque);
  try {
    const auto end = static_cast<std::size_t>(file.position) + static_cast<std::size_t>(size);
    if (end > file.bytes.size()) file.bytes.resize(end);
    std::memcpy(file.bytes.data() + file.position, data, static_cast<std::size_t>(size));
    file.position = static_cast<std::int64_t>(end);
    return size;
  } catch (...) {
    file.failed = true;
    return AVERROR(ENOMEM);
  }
}

std::int64_t seek_to(std::int64_t& position, std::int64_t size, std::int64_t offset, int whence) {
  whence &= ~AVSEEK_FORCE;
  if (whence == AVSEEK_SIZE) return size;
  std::int64_t target = offset;
  if (whence == SEEK_CUR) target += position;
  else if (whence == SEEK_END) target += size;
  else if (whence != SEEK_SET) return AVERROR(EINVAL);
  if (target < 0) return AVERROR(EINVAL);
  position = target;
  return target;
}

std::int64_t seek_memory(void* opaque, std::int64_t offset, int whence) {
  auto& file = *static_cast<MemoryFile*>(opaque);
  return seek_to(file.position, static_cast<std::int64_t>(file.bytes.size()), offset, whence);
}

int read_memory(void* opaque, std::uint8_t* data, int size) {
  auto& reader = *static_cast<Reader*>(opaque);
  const auto total = static_cast<std::int64_t>(reader.file->bytes.size());
  if (reader.position >= total) return AVERROR_EOF;
  const int n = static_cast<int>(std::min<std::int64_t>(size, total - reader.position));
  std::memcpy(data, reader.file->bytes.data() + reader.position, static_cast<std::size_t>(n));
  reader.position += n;
  return n;
}

std::int64_t seek_reader(void* opaque, std::int64_t offset, int whence) {
  auto& reader = *static_cast<Reader*>(opaque);
  return seek_to(reader.position, static_cast<std::int64_t>(reader.file->bytes.size()), offset, whence);
}

constexpr int kIoBuffer = 1 << 16;

AVIOContext* memory_io(void* opaque, bool write) {
  auto* buffer = static_cast<unsigned char*>(av_malloc(kIoBuffer));
  if (!buffer) throw std::bad_alloc();
  AVIOContext* io = write ? avio_alloc_context(buffer, kIoBuffer, 1, opaque, nullptr, write_memory, seek_memory)
                          : avio_alloc_context(buffer, kIoBuffer, 0, opaque, read_memory, nullptr, seek_reader);
  if (!io) {
    av_free(buffer);
    throw std::bad_alloc();
  }
  return io;
}

// The muxer opens the file again only to read it back (mov's +faststart). The format context's `opaque` is the
// MemoryFile.
int open_again(AVFormatContext* s, AVIOContext** pb, const char*, int flags, AVDictionary**) {
  if (flags & AVIO_FLAG_WRITE) return AVERROR(ENOSYS);
  try {
    auto* reader = new Reader{static_cast<MemoryFile*>(s->opaque)};
    *pb = memory_io(reader, false);
    return 0;
  } catch (...) {
    return AVERROR(ENOMEM);
  }
}

void close_again(AVFormatContext*, AVIOContext* pb) {
  if (!pb) return;
  delete static_cast<Reader*>(pb->opaque);
  FreeIo()(pb);
}

// A GIF's palette from every pixel of every frame, in memory that does not grow with the clip: the colours are
// counted in 2^18 bins (6 bits per channel), each keeping its pixel count and the sums of its pixels' channels, so a
// bin's colour is the exact mean of the pixels that fell in it (a flat colour alone in its bin stays exact). 8 MB
// for any length; FFmpeg's palettegen kept one entry per distinct 24-bit colour, which for a 10 s 1280x720 clip of
// the window's antialiased drawing grew to half a gigabyte. Then a median cut of the bins, weighted by pixel counts
// (as palettegen's): the box with the largest squared error is split at its weighted median along its widest
// channel, each box's mean is a palette colour.
class PaletteHistogram {
 public:
  PaletteHistogram() : bins_(kBins) {}

  void add(const std::uint8_t* rgba, int width, int height, std::size_t stride) {
    for (int y = 0; y < height; ++y) {
      const std::uint8_t* p = rgba + static_cast<std::size_t>(y) * stride;
      for (int x = 0; x < width; ++x, p += 4) {
        Bin& bin = bins_[static_cast<std::size_t>(p[0] >> 2) << 12 | static_cast<std::size_t>(p[1] >> 2) << 6 |
                         static_cast<std::size_t>(p[2] >> 2)];
        ++bin.count;
        bin.sum[0] += p[0];
        bin.sum[1] += p[1];
        bin.sum[2] += p[2];
      }
    }
  }

  // At most `limit` colours, 0xRRGGBB, in the order the boxes were made.
  std::vector<std::uint32_t> palette(std::size_t limit) const {
    std::vector<const Bin*> used;
    for (const Bin& bin : bins_)
      if (bin.count) used.push_back(&bin);
    struct Box {
      std::size_t begin, end;
      double error;
      int axis;
    };
    const auto mean = [](const Bin& b, int a) { return static_cast<double>(b.sum[a]) / static_cast<double>(b.count); };
    const auto measure = [&](std::size_t begin, std::size_t end) {
      Box box{begin, end, 0.0, 1};
      double n = 0, sum[3] = {0, 0, 0}, squares[3] = {0, 0, 0}, lo[3] = {256, 256, 256}, hi[3] = {-1, -1, -1};
      for (std::size_t i = begin; i < end; ++i) {
        const double w = static_cast<double>(used[i]->count);
        n += w;
        for (int a = 0; a < 3; ++a) {
          const double v = mean(*used[i], a);
          sum[a] += w * v;
          squares[a] += w * v * v;
          lo[a] = std::min(lo[a], v);
          hi[a] = std::max(hi[a], v);
        }
      }
      for (int a = 0; a < 3; ++a) {
        box.error += squares[a] - sum[a] * sum[a] / n;
        if (hi[a] - lo[a] > hi[box.axis] - lo[box.axis]) box.axis = a;  // green first on a tie
      }
      if (end - begin < 2) box.error = -1.0;  // one bin: nothing to split
      return box;
    };
    std::vector<Box> boxes;
    if (!used.empty()) boxes.push_back(measure(0, used.size()));
    while (boxes.size() < limit && !boxes.empty()) {
      const auto worst =
          std::max_element(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) { return a.error < b.error; });
      if (worst->error < 0.0) break;
      const Box box = *worst;
      const int axis = box.axis;
      std::sort(used.begin() + static_cast<std::ptrdiff_t>(box.begin), used.begin() + static_cast<std::ptrdiff_t>(box.end),
                [&](const Bin* a, const Bin* b) {
                  const double va = mean(*a, axis), vb = mean(*b, axis);
                  return va != vb ? va < vb : a < b;  // bins in table order on a tie: deterministic
                });
      std::uint64_t total = 0, below = 0;
      for (std::size_t i = box.begin; i < box.end; ++i) total += used[i]->count;
      std::size_t split = box.begin + 1;
      for (std::size_t i = box.begin; i + 1 < box.end; ++i) {
        below += used[i]->count;
        split = i + 1;
        if (2 * below >= total) break;
      }
      *worst = measure(box.begin, split);
      boxes.push_back(measure(split, box.end));
    }
    std::vector<std::uint32_t> colours;
    for (const Box& box : boxes) {
      std::uint64_t n = 0, sum[3] = {0, 0, 0};
      for (std::size_t i = box.begin; i < box.end; ++i) {
        n += used[i]->count;
        for (int a = 0; a < 3; ++a) sum[a] += used[i]->sum[a];
      }
      std::uint32_t colour = 0;
      for (int a = 0; a < 3; ++a) colour |= static_cast<std::uint32_t>((2 * sum[a] + n) / (2 * n)) << (16 - 8 * a);
      colours.push_back(colour);
    }
    return colours;
  }

 private:
  static constexpr std::size_t kBins = std::size_t{1} << 18;
  struct Bin {
    std::uint64_t count = 0;
    std::uint64_t sum[3] = {0, 0, 0};
  };
  std::vector<Bin> bins_;
};

// Each frame in the palette, as FFmpeg's paletteuse did with dither=sierra2_4a:diff_mode=rectangle, in memory that
// does not grow with the clip: only the rectangle that changed since the previous frame is mapped again (the rest
// keeps its indices, so still parts stay still), by error diffusion (Sierra-2-4A: 2/4 of a pixel's error to the
// right, 1/4 below-left, 1/4 below; none where a colour is in the palette). The nearest palette colour of each
// 24-bit colour met is kept in a table of 2^24 bytes (16 MB); paletteuse kept a growing cache entry per colour,
// and the dither's colours are many: 700 MB for a 10 s 1280x720 clip.
class PaletteMapper {
 public:
  static constexpr std::uint8_t kUnknown = 255;  // the transparent entry: never a nearest colour

  PaletteMapper(std::vector<std::uint32_t> palette, int width, int height)
      : palette_(std::move(palette)), width_(width), height_(height), nearest_(std::size_t{1} << 24, kUnknown),
        previous_(static_cast<std::size_t>(width) * height * 4), indices_(static_cast<std::size_t>(width) * height),
        error_(2 * 3 * (static_cast<std::size_t>(width) + 2)) {
    if (palette_.empty()) palette_.push_back(0);
  }

  // Maps `rgba` (rows `stride` bytes apart) into indices(): a width x height array of palette indices.
  void map(const std::uint8_t* rgba, std::size_t stride) {
    const std::size_t row_bytes = static_cast<std::size_t>(width_) * 4;
    int x0 = 0, y0 = 0, x1 = width_, y1 = height_;
    if (!first_) {
      x0 = width_, y0 = height_, x1 = 0, y1 = 0;
      for (int y = 0; y < height_; ++y) {
        const std::uint8_t* a = rgba + static_cast<std::size_t>(y) * stride;
        const std::uint8_t* b = &previous_[static_cast<std::size_t>(y) * row_bytes];
        if (std::memcmp(a, b, row_bytes) == 0) continue;
        int left = 0, right = width_ - 1;
        while (std::memcmp(a + 4 * left, b + 4 * left, 3) == 0) ++left;
        while (std::memcmp(a + 4 * right, b + 4 * right, 3) == 0) --right;
        if (left > right) continue;  // only alpha differs
        x0 = std::min(x0, left);
        x1 = std::max(x1, right + 1);
        y0 = std::min(y0, y);
        y1 = y + 1;
      }
    }
    first_ = false;
    for (int y = 0; y < height_; ++y)
      std::memcpy(&previous_[static_cast<std::size_t>(y) * row_bytes], rgba + static_cast<std::size_t>(y) * stride,
                  row_bytes);
    if (x1 <= x0) return;
    // Two rows of errors (this one and the next), with a pixel of margin on each side.
    const std::size_t span = 3 * (static_cast<std::size_t>(width_) + 2);
    std::fill(error_.begin(), error_.end(), 0);
    int* here = error_.data();
    int* below = error_.data() + span;
    for (int y = y0; y < y1; ++y) {
      const std::uint8_t* row = &previous_[static_cast<std::size_t>(y) * row_bytes];
      std::uint8_t* out = &indices_[static_cast<std::size_t>(y) * width_];
      for (int x = x0; x < x1; ++x) {
        int* e = here + 3 * (x + 1);
        int c[3];
        for (int a = 0; a < 3; ++a) c[a] = std::clamp(row[4 * x + a] + e[a], 0, 255);
        const std::uint8_t index = nearest(static_cast<std::uint32_t>(c[0]) << 16 |
                                           static_cast<std::uint32_t>(c[1]) << 8 | static_cast<std::uint32_t>(c[2]));
        out[x] = index;
        const std::uint32_t p = palette_[index];
        for (int a = 0; a < 3; ++a) {
          const int error = c[a] - static_cast<int>(p >> (16 - 8 * a) & 0xFF);
          if (error == 0) continue;
          if (x + 1 < x1) e[3 + a] += error * 2 / 4;
          if (y + 1 < y1) {
            int* d = below + 3 * (x + 1);
            if (x > x0) d[-3 + a] += error / 4;
            d[a] += error / 4;
          }
        }
      }
      std::swap(here, below);
      std::fill(below, below + span, 0);
    }
  }

  const std::uint8_t* indices() const { return indices_.data(); }
  const std::vector<std::uint32_t>& palette() const { return palette_; }

 private:
  // The nearest palette colour (RGB distance; the lower index on a tie), found once per colour.
  std::uint8_t nearest(std::uint32_t colour) {
    std::uint8_t& known = nearest_[colour];
    if (known != kUnknown) return known;
    const int r = static_cast<int>(colour >> 16), g = static_cast<int>(colour >> 8 & 0xFF),
              b = static_cast<int>(colour & 0xFF);
    int best = 0, best_distance = 1 << 30;
    for (std::size_t i = 0; i < palette_.size(); ++i) {
      const std::uint32_t p = palette_[i];
      const int dr = static_cast<int>(p >> 16) - r, dg = static_cast<int>(p >> 8 & 0xFF) - g,
                db = static_cast<int>(p & 0xFF) - b;
      const int d = dr * dr + dg * dg + db * db;
      if (d < best_distance) {
        best_distance = d;
        best = static_cast<int>(i);
      }
    }
    known = static_cast<std::uint8_t>(best);
    return known;
  }

  std::vector<std::uint32_t> palette_;
  int width_, height_;
  bool first_ = true;
  std::vector<std::uint8_t> nearest_;   // 2^24 entries: a colour's palette index, or kUnknown
  std::vector<std::uint8_t> previous_;  // the previous frame's RGBA
  std::vector<std::uint8_t> indices_;
  std::vector<int> error_;
};

}  // namespace

struct FfmpegEncoder final : Encoder {
  FfmpegEncoder(const VideoSpec& spec, std::string name);
  int passes() const override { return spec.format == Format::Gif ? 2 : 1; }
  long frame_count() const override { return frames; }
  void add_frame(const std::uint8_t* rgba, std::size_t stride) override;
  void next_pass() override;
  std::string finish() override;

  VideoSpec spec;
  std::string name;
  int pass = 1;
  long frames = 0;
  long first_pass_frames = 0;
  bool finished = false;

  MemoryFile file;
  FormatPtr format;
  IoPtr io;
  CodecPtr codec;
  AVStream* stream = nullptr;
  FramePtr frame;  // the encoder's input (MP4: yuv420p; GIF: pal8, PaletteMapper's indices)
  PacketPtr packet;
  ScalerPtr scaler;  // MP4: RGBA → yuv420p
  std::unique_ptr<PaletteMapper> mapper;  // GIF pass 2: frames into the palette
  std::unique_ptr<PaletteHistogram> histogram;  // GIF pass 1: every frame's colours
  bool header_written = false, trailer_written = false;
  std::int64_t last_pts = AV_NOPTS_VALUE;  // GIF: the last frame's time, centiseconds

  // A video abandoned half-way (an error, a failed simulation): the muxer still gets its trailer, into the memory
  // that is then dropped, because that is where some muxers free what they hold (FFmpeg 5.1's GIF muxer keeps the
  // previous packet and has no other clean-up).
  ~FfmpegEncoder() override {
    if (header_written && !trailer_written) av_write_trailer(format.get());
  }

  [[noreturn]] void fail(const std::string& what, int code) {
    if (code == AVERROR(ENOMEM) || file.failed) throw std::bad_alloc();
    throw VideoError(name + ": " + what + ": " + reason(code));
  }
  void check(int code, const char* what) {
    if (code < 0) fail(what, code);
  }

  void open_muxer() {
    AVFormatContext* raw = nullptr;
    check(avformat_alloc_output_context2(&raw, nullptr, spec.format == Format::Mp4 ? "mp4" : "gif", nullptr),
          "cannot start the file");
    format.reset(raw);
    io.reset(memory_io(&file, true));
    format->pb = io.get();
    format->flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT;  // no library version in the file: same bytes
    format->opaque = &file;
    format->io_open = open_again;
    format->io_close = close_again;
    format->url = av_strdup(name.c_str());
    if (!format->url) throw std::bad_alloc();
  }

  void open_encoder() {
    const AVCodec* encoder =
        spec.format == Format::Mp4 ? avcodec_find_encoder_by_name("libx264") : avcodec_find_encoder(AV_CODEC_ID_GIF);
    if (!encoder)
      throw VideoError(name + ": this FFmpeg has no " +
                       (spec.format == Format::Mp4 ? std::string("libx264 (H.264) encoder")
                                                   : std::string("GIF encoder")));
    codec.reset(avcodec_alloc_context3(encoder));
    if (!codec) throw std::bad_alloc();
    codec->width = spec.width;
    codec->height = spec.height;
    codec->time_base = AVRational{1, spec.fps};
    codec->framerate = AVRational{spec.fps, 1};
    codec->sample_aspect_ratio = AVRational{1, 1};
    AVDictionary* options = nullptr;
    if (spec.format == Format::Mp4) {
      codec->pix_fmt = AV_PIX_FMT_YUV420P;
      codec->color_range = AVCOL_RANGE_MPEG;
      codec->colorspace = AVCOL_SPC_BT709;
      codec->color_primaries = AVCOL_PRI_BT709;
      codec->color_trc = AVCOL_TRC_BT709;
      codec->thread_count = spec.threads;
      av_dict_set(&options, "preset", spec.preset, 0);
      av_dict_set_int(&options, "crf", spec.crf, 0);
    } else {
      codec->pix_fmt = AV_PIX_FMT_PAL8;
      codec->flags |= AV_CODEC_FLAG_BITEXACT;
    }
    if (format->oformat->flags & AVFMT_GLOBALHEADER) codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    const int opened = avcodec_open2(codec.get(), encoder, &options);
    av_dict_free(&options);
    check(opened, spec.format == Format::Mp4 ? "cannot open the H.264 encoder" : "cannot open the GIF encoder");

    stream = avformat_new_stream(format.get(), nullptr);
    if (!stream) throw std::bad_alloc();
    stream->time_base = codec->time_base;
    stream->avg_frame_rate = codec->framerate;
    stream->r_frame_rate = codec->framerate;
    check(avcodec_parameters_from_context(stream->codecpar, codec.get()), "cannot set up the stream");

    frame.reset(av_frame_alloc());
    packet.reset(av_packet_alloc());
    if (!frame || !packet) throw std::bad_alloc();
  }

  void write_header() {
    AVDictionary* options = nullptr;
    if (spec.format == Format::Mp4) av_dict_set(&options, "movflags", "+faststart", 0);
    const int written = avformat_write_header(format.get(), &options);  // may change stream->time_base
    av_dict_free(&options);
    check(written, "cannot write the file's header");
    header_written = true;
  }

  void open_scaler() {
    scaler.reset(sws_getContext(spec.width, spec.height, AV_PIX_FMT_RGBA, spec.width, spec.height,
                                AV_PIX_FMT_YUV420P, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nullptr,
                                nullptr, nullptr));
    if (!scaler) throw VideoError(name + ": cannot set up the RGBA to YUV conversion");
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    // From full-range RGB to limited-range BT.709 YUV, as the stream is tagged.
    sws_setColorspaceDetails(scaler.get(), bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
    frame->format = AV_PIX_FMT_YUV420P;
    frame->width = spec.width;
    frame->height = spec.height;
    frame->color_range = AVCOL_RANGE_MPEG;
    frame->colorspace = AVCOL_SPC_BT709;
    frame->color_primaries = AVCOL_PRI_BT709;
    frame->color_trc = AVCOL_TRC_BT709;
    check(av_frame_get_buffer(frame.get(), 0), "cannot allocate a frame");
  }

  // Sends `input` (nothing: the end) to the encoder and writes every packet it has ready.
  void encode(AVFrame* input) {
    check(avcodec_send_frame(codec.get(), input), "cannot encode a frame");
    for (;;) {
      const int got = avcodec_receive_packet(codec.get(), packet.get());
      if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
      check(got, "cannot encode a frame");
      av_packet_rescale_ts(packet.get(), codec->time_base, stream->time_base);
      if (spec.format == Format::Gif) {
        // Whole centiseconds: above 100 fps two frames would round to one time; each keeps at least 1 cs instead
        // (every frame stays, and such a GIF plays slower than real time).
        if (last_pts != AV_NOPTS_VALUE && packet->pts <= last_pts) packet->pts = last_pts + 1;
        packet->dts = packet->pts;
        last_pts = packet->pts;
      }
      packet->stream_index = stream->index;
      check(av_interleaved_write_frame(format.get(), packet.get()), "cannot write a frame");
    }
  }

  // GIF pass 2: the frame in the palette (PaletteMapper), encoded as a PAL8 frame whose palette's last entry is
  // transparent (the GIF encoder's frame-to-frame differences use it).
  void encode_paletted(const std::uint8_t* rgba, std::size_t stride) {
    mapper->map(rgba, stride);
    check(av_frame_make_writable(frame.get()), "cannot allocate a frame");
    for (int y = 0; y < spec.height; ++y)
      std::memcpy(frame->data[0] + static_cast<std::size_t>(y) * frame->linesize[0],
                  mapper->indices() + static_cast<std::size_t>(y) * spec.width, static_cast<std::size_t>(spec.width));
    auto* colours = reinterpret_cast<std::uint32_t*>(frame->data[1]);
    const std::vector<std::uint32_t>& palette = mapper->palette();
    for (std::size_t i = 0; i < 256; ++i)
      colours[i] = i == 255 ? 0x0000ff00u : i < palette.size() ? 0xff000000u | palette[i] : 0xff000000u;
    frame->pts = frames;
    encode(frame.get());
  }
};

FfmpegEncoder::FfmpegEncoder(const VideoSpec& spec_, std::string name_) {
  install_log();
  spec = spec_;
  name = std::move(name_);
  take_log();
  open_muxer();
  open_encoder();
  if (spec.format == Format::Mp4) {
    open_scaler();
    write_header();
  } else {
    // Every colour of every frame counted (PaletteHistogram); the 256th entry stays transparent, for the encoder's
    // frame-to-frame differences (the GIF encoder's transdiff), which keeps the file small.
    histogram = std::make_unique<PaletteHistogram>();
  }
}

void FfmpegEncoder::add_frame(const std::uint8_t* rgba, std::size_t stride) {
  FfmpegEncoder& m = *this;
  if (m.finished) throw VideoError(m.name + ": the video is already finished");
  if (stride == 0) stride = static_cast<std::size_t>(m.spec.width) * 4;
  if (m.spec.format == Format::Mp4) {
    m.check(av_frame_make_writable(m.frame.get()), "cannot allocate a frame");
    const std::uint8_t* planes[1] = {rgba};
    const int strides[1] = {static_cast<int>(stride)};
    sws_scale(m.scaler.get(), planes, strides, 0, m.spec.height, m.frame->data, m.frame->linesize);
    m.frame->pts = m.frames;
    m.encode(m.frame.get());
  } else {
    if (m.pass == 2 && m.frames >= m.first_pass_frames)
      throw VideoError(m.name + ": more frames in the second pass than in the first");
    if (m.pass == 1) m.histogram->add(rgba, m.spec.width, m.spec.height, stride);
    else m.encode_paletted(rgba, stride);
  }
  ++m.frames;
}

void FfmpegEncoder::next_pass() {
  FfmpegEncoder& m = *this;
  if (m.spec.format != Format::Gif || m.pass != 1) throw VideoError(m.name + ": no further pass");
  if (m.frames == 0) throw VideoError(m.name + ": no frames");
  m.mapper = std::make_unique<PaletteMapper>(m.histogram->palette(255), m.spec.width, m.spec.height);
  m.histogram.reset();
  m.first_pass_frames = m.frames;
  m.frames = 0;
  m.pass = 2;
  m.frame->format = AV_PIX_FMT_PAL8;
  m.frame->width = m.spec.width;
  m.frame->height = m.spec.height;
  m.check(av_frame_get_buffer(m.frame.get(), 0), "cannot allocate a frame");
  m.write_header();
}

std::string FfmpegEncoder::finish() {
  FfmpegEncoder& m = *this;
  if (m.finished) throw VideoError(m.name + ": the video is already finished");
  if (m.pass < passes()) throw VideoError(m.name + ": the GIF's second pass is missing");
  if (m.frames == 0) throw VideoError(m.name + ": no frames");
  if (m.spec.format == Format::Gif) {
    if (m.frames != m.first_pass_frames)
      throw VideoError(m.name + ": fewer frames in the second pass than in the first");
  }
  m.encode(nullptr);  // the encoder's delayed frames
  m.trailer_written = true;  // tried once, whatever it gives
  m.check(av_write_trailer(m.format.get()), "cannot finish the file");
  avio_flush(m.io.get());
  if (m.file.failed) throw std::bad_alloc();
  m.finished = true;
  return std::move(m.file.bytes);
}

}  // namespace lagrange::video

// The module's one entry point (video_encoder.h): found with dlsym by the VideoWriter in the program.
extern "C" lagrange::video::Encoder* lagrange_video_create_encoder(const lagrange::video::VideoSpec& spec,
                                                                   const std::string& name) {
  return new lagrange::video::FfmpegEncoder(spec, name);
}
