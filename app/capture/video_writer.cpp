#include "capture/video_writer.h"

#include <cctype>

#include "capture/video_encoder.h"

namespace lagrange::video {
namespace {

std::string lower_extension(std::string_view path) {
  const auto slash = path.rfind('/');
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  std::string ext(path.substr(dot + 1));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace

const char* codec_name(Format format) { return format == Format::Mp4 ? "h264" : "gif"; }

std::optional<Format> parse_format(std::string_view name) {
  if (name == "mp4") return Format::Mp4;
  if (name == "gif") return Format::Gif;
  return std::nullopt;
}

std::optional<Format> format_for_path(std::string_view path) { return parse_format(lower_extension(path)); }

std::string check_spec(const VideoSpec& spec) {
  if (spec.fps < 1 || spec.fps > 120) return "the frame rate must be 1..120 frames per second";
  if (spec.width < 16 || spec.height < 16 || spec.width > 8192 || spec.height > 8192)
    return "the size must be 16..8192 pixels each way";
  if (spec.format == Format::Mp4 && (spec.width % 2 || spec.height % 2))
    return "an MP4 (H.264, 4:2:0) needs an even width and height, got " + std::to_string(spec.width) + "x" +
           std::to_string(spec.height);
  return {};
}

VideoWriter::VideoWriter(const VideoSpec& spec, std::string name) : spec_(spec), name_(std::move(name)) {
  if (const std::string problem = check_spec(spec); !problem.empty()) throw VideoError(name_ + ": " + problem);
  encoder_ = open_encoder(spec, name_);  // the build's encoder (video_encoder.h)
}

VideoWriter::~VideoWriter() = default;

int VideoWriter::passes() const { return encoder_->passes(); }
long VideoWriter::frames() const { return encoder_->frame_count(); }
const VideoSpec& VideoWriter::spec() const { return spec_; }

void VideoWriter::add_frame(const std::uint8_t* rgba, std::size_t stride) {
  encoder_->add_frame(rgba, stride ? stride : static_cast<std::size_t>(spec_.width) * 4);
}

void VideoWriter::next_pass() { encoder_->next_pass(); }

std::string VideoWriter::finish() { return encoder_->finish(); }

}  // namespace lagrange::video
