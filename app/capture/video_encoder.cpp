#include "capture/video_encoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
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
struct FreeGraph {
  void operator()(AVFilterGraph* p) const { avfilter_graph_free(&p); }
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
using GraphPtr = std::unique_ptr<AVFilterGraph, FreeGraph>;
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
  FramePtr frame;  // the encoder's input (MP4: yuv420p; GIF: the filter graph's pal8 output)
  PacketPtr packet;
  ScalerPtr scaler;  // MP4: RGBA → yuv420p
  GraphPtr graph;    // GIF: palettegen (pass 1) or paletteuse (pass 2)
  AVFilterContext* source = nullptr;
  AVFilterContext* sink = nullptr;
  FramePtr palette;  // GIF: palettegen's 16x16 palette, from pass 1
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

  // A filter graph: `source` (RGBA frames) → `filter` [with `palette_source` as the second input] → `sink`.
  void open_graph(const char* filter, const char* arguments, AVFilterContext** palette_source) {
    graph.reset(avfilter_graph_alloc());
    if (!graph) throw std::bad_alloc();
    const AVFilter* buffer = avfilter_get_by_name("buffer");
    const AVFilter* buffersink = avfilter_get_by_name("buffersink");
    const AVFilter* middle = avfilter_get_by_name(filter);
    if (!buffer || !buffersink || !middle)
      throw VideoError(name + ": this FFmpeg's libavfilter has no " + filter + " filter");
    char args[256];
    std::snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=1/%d:pixel_aspect=1/1", spec.width,
                  spec.height, static_cast<int>(AV_PIX_FMT_RGBA), spec.fps);
    check(avfilter_graph_create_filter(&source, buffer, "frames", args, nullptr, graph.get()),
          "cannot set up the GIF palette");
    AVFilterContext* use = nullptr;
    check(avfilter_graph_create_filter(&use, middle, filter, arguments, nullptr, graph.get()),
          "cannot set up the GIF palette");
    check(avfilter_graph_create_filter(&sink, buffersink, "out", nullptr, nullptr, graph.get()),
          "cannot set up the GIF palette");
    check(avfilter_link(source, 0, use, 0), "cannot set up the GIF palette");
    if (palette_source) {
      std::snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=1/%d:pixel_aspect=1/1",
                    palette->width, palette->height, palette->format, spec.fps);
      check(avfilter_graph_create_filter(palette_source, buffer, "palette", args, nullptr, graph.get()),
            "cannot set up the GIF palette");
      check(avfilter_link(*palette_source, 0, use, 1), "cannot set up the GIF palette");
    }
    check(avfilter_link(use, 0, sink, 0), "cannot set up the GIF palette");
    check(avfilter_graph_config(graph.get(), nullptr), "cannot set up the GIF palette");
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

  // GIF pass 2: every frame paletteuse has ready, encoded with the next timestamps.
  void drain_graph(long& pts) {
    for (;;) {
      av_frame_unref(frame.get());
      const int got = av_buffersink_get_frame(sink, frame.get());
      if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
      check(got, "cannot apply the GIF palette");
      frame->pts = pts++;
      encode(frame.get());
    }
  }

  long encoded = 0;  // GIF: frames out of the graph so far (their pts)

  // An RGBA frame for the graph's source, copied (the graph keeps a reference to it).
  void push_rgba(const std::uint8_t* rgba, std::size_t stride) {
    FramePtr input(av_frame_alloc());
    if (!input) throw std::bad_alloc();
    input->format = AV_PIX_FMT_RGBA;
    input->width = spec.width;
    input->height = spec.height;
    input->pts = frames;
    check(av_frame_get_buffer(input.get(), 0), "cannot allocate a frame");
    const std::size_t row = static_cast<std::size_t>(spec.width) * 4;
    for (int y = 0; y < spec.height; ++y)
      std::memcpy(input->data[0] + static_cast<std::size_t>(y) * input->linesize[0], rgba + y * stride, row);
    check(av_buffersrc_add_frame(source, input.get()), "cannot make the GIF palette");
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
    // Every colour of every frame counted (stats_mode=full); the 256th entry stays transparent, for the encoder's
    // frame-to-frame differences (the GIF encoder's transdiff), which keeps the file small.
    open_graph("palettegen", "stats_mode=full", nullptr);
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
    m.push_rgba(rgba, stride);
    if (m.pass == 2) m.drain_graph(m.encoded);
  }
  ++m.frames;
}

void FfmpegEncoder::next_pass() {
  FfmpegEncoder& m = *this;
  if (m.spec.format != Format::Gif || m.pass != 1) throw VideoError(m.name + ": no further pass");
  if (m.frames == 0) throw VideoError(m.name + ": no frames");
  m.check(av_buffersrc_add_frame(m.source, nullptr), "cannot make the GIF palette");
  m.palette.reset(av_frame_alloc());
  if (!m.palette) throw std::bad_alloc();
  m.check(av_buffersink_get_frame(m.sink, m.palette.get()), "cannot make the GIF palette");
  m.first_pass_frames = m.frames;
  m.frames = 0;
  m.pass = 2;
  // Pass 2: the frames through the palette (a dither that diffuses the error only where colours are missing; only
  // the rectangle that changed is processed again, so still parts of a frame stay the same pixels).
  AVFilterContext* palette_source = nullptr;
  m.open_graph("paletteuse", "dither=sierra2_4a:diff_mode=rectangle", &palette_source);
  m.palette->pts = 0;
  m.check(av_buffersrc_add_frame_flags(palette_source, m.palette.get(), AV_BUFFERSRC_FLAG_KEEP_REF),
          "cannot apply the GIF palette");
  m.check(av_buffersrc_add_frame(palette_source, nullptr), "cannot apply the GIF palette");
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
    m.check(av_buffersrc_add_frame(m.source, nullptr), "cannot apply the GIF palette");
    m.drain_graph(m.encoded);
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
