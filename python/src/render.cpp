// lagrange_lab._render: World.shot and Lanes.shot (docs/python.md). The picture is `lagrange-lab shot`'s: the same
// HeadlessRender (app/cli/render_setup.h) opens a hidden sandbox on SDL's offscreen driver from the world's scene as
// it is now (its saved state: the same positions), with the same view options, and reads the pixels it drew. A module
// of its own, so `import lagrange_lab` does not load SDL, OpenGL and ImGui until the first picture.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

#include "capture/screenshot.h"
#include "cli/render_setup.h"
#include "lagrange/scene.h"
#include "window/theme.h"
#include "lagrange/text.h"
#include "options/drag_option.h"
#include "options/lanes_option.h"

namespace py = pybind11;
using namespace lagrange;
using lagrange::app::Image;
using lagrange::app::encode_png;

namespace {

// A scene file in the temporary folder, removed when done: the picture reads the scene as `shot` reads its SCENE.
struct TemporaryScene {
  std::filesystem::path path;
  explicit TemporaryScene(const std::string& json) {
    std::string name = (std::filesystem::temp_directory_path() / "lagrange-lab-shot-XXXXXX").string();
    const int fd = ::mkstemp(name.data());
    if (fd < 0) throw std::runtime_error("shot: cannot make a temporary file");
    ::close(fd);
    path = name;
    std::ofstream(path) << json;
  }
  ~TemporaryScene() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
};

// What the command would print on stderr (its messages: a bad lane, a failed step), caught for the exception, so a
// notebook shows it rather than the terminal its kernel runs in.
class CapturedStderr {
 public:
  CapturedStderr() : file_(std::tmpfile()) {
    std::fflush(stderr);
    saved_ = ::dup(2);
    if (file_ && saved_ >= 0) ::dup2(::fileno(file_), 2);
  }
  ~CapturedStderr() {
    restore();
    if (file_) std::fclose(file_);
  }
  // Stops capturing; the text written meanwhile, its trailing newlines cut.
  std::string text() {
    restore();
    std::string all;
    if (!file_) return all;
    std::rewind(file_);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) all.append(buffer, n);
    while (!all.empty() && all.back() == '\n') all.pop_back();
    return all;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_ = -1;
};

py::array_t<std::uint8_t> shot(const std::vector<std::string>& lane_scenes, const std::string& lanes,
                               const std::string& solver, long steps, const std::vector<std::string>& drags,
                               const std::string& drag_model, int width, int height, bool panels, bool measure, bool bare, const std::string& lane_view,
                               int exaggerate, bool rest_lengths, bool length_labels, double ui_scale,
                               const std::string& theme) {
  app::HeadlessRender render("shot", "");  // no usage text after a message: the message alone
  app::RenderOptions& o = render.options;
  if (width < 16 || height < 16 || width > 8192 || height > 8192)
    throw py::value_error("size: needs (width, height) in 16..8192, got (" + std::to_string(width) + ", " +
                          std::to_string(height) + ")");
  o.window.width = width;
  o.window.height = height;
  o.panels = panels || measure;
  o.measure = measure;
  o.bare = bare;
  o.rest_lengths = rest_lengths;
  o.length_labels = length_labels;
  if (exaggerate != 1 && exaggerate != 10 && exaggerate != 100 && exaggerate != 1000)
    throw py::value_error("exaggerate: needs 1, 10, 100 or 1000, got " + std::to_string(exaggerate));
  o.exaggeration = exaggerate;
  const auto scale = app::parse_ui_scale(std::to_string(ui_scale));
  if (!scale) throw py::value_error(app::ui_scale_error(std::to_string(ui_scale)));
  o.window.appearance.scale = *scale;
  const auto parsed_theme = app::parse_theme(theme);
  if (!parsed_theme) throw py::value_error(app::theme_error(theme));
  o.window.appearance.theme = *parsed_theme;
  try {
    o.lane_view = app::parse_lane_view(lane_view);
  } catch (const std::exception& error) {
    throw py::value_error(error.what());
  }
  if (!lanes.empty()) o.lanes_text = lanes;
  o.solver = solver;
  try {  // the scripted drags of `shot --drag`, read by its own parser
    for (const std::string& drag : drags) o.drags.drags.push_back(cli::parse_drag(drag));
    if (const auto model = find_drag_model(drag_model)) o.drags.model = *model;
    else throw cli::UsageError("--drag-model: unknown " + lagrange::quoted(drag_model) + " (hard, spring)");
  } catch (const cli::UsageError& error) {
    throw py::value_error(error.what());
  }
  o.limits = SceneLimits::unlimited();
  const TemporaryScene scene(lane_scenes.at(0));
  o.scene = scene.path.string();
  o.out = scene.path.string() + ".png";  // never written
  CapturedStderr messages;
  if (render.load(".png") != 0 || render.open() != 0) throw py::value_error(messages.text());
  // Later lanes start as copies of lane 1; each is put back where the Python lane is.
  for (std::size_t k = 1; k < lane_scenes.size() && k < render.state().sim.size(); ++k)
    render.state().sim.lane(k).world.restore(make_world(parse_scene(lane_scenes[k], "lane")).state());
  for (long i = 1; i <= steps; ++i)  // `shot --steps`: step by step, stopping at a failure as shot does (exit 3)
    if (render.step(i, "picture") != 0) {  // shot's exit 3: lagrange_lab.SimulationFailed, with its message
      const py::object failed = py::module_::import("lagrange_lab._core").attr("SimulationFailed");
      PyErr_SetString(failed.ptr(), messages.text().c_str());
      throw py::error_already_set();
    }
  if (const std::string rest = messages.text(); !rest.empty())  // a lane that stopped: said where stderr goes
    std::fprintf(stderr, "%s\n", rest.c_str());
  render.settle();
  render.sandbox().render(!bare);
  const Image image = render.sandbox().read_pixels();
  py::array_t<std::uint8_t> pixels(std::vector<py::ssize_t>{image.height, image.width, 4});
  std::copy(image.rgba.begin(), image.rgba.end(), pixels.mutable_data());
  return pixels;
}

}  // namespace

PYBIND11_MODULE(_render, m) {
  m.doc() = "World.shot's renderer: lagrange-lab shot's hidden sandbox (import lagrange_lab, not this module)";
  m.def("encode_png", [](const py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>& pixels) {
    if (pixels.ndim() != 3 || pixels.shape(2) != 4) throw py::value_error("encode_png: expected an (h, w, 4) array");
    Image image;
    image.height = static_cast<int>(pixels.shape(0));
    image.width = static_cast<int>(pixels.shape(1));
    image.rgba.assign(pixels.data(), pixels.data() + pixels.size());
    std::string png;
    if (!encode_png(image, png)) throw std::bad_alloc();
    return py::bytes(png);
  }, "PNG bytes of an RGBA picture, by shot's encoder");
  m.def("shot", &shot, py::arg("lane_scenes"), py::arg("lanes"), py::arg("solver"), py::arg("steps"),
        py::arg("drags"), py::arg("drag_model"), py::arg("width"), py::arg("height"),
        py::arg("panels"), py::arg("measure"), py::arg("bare"), py::arg("lane_view"), py::arg("exaggerate"),
        py::arg("rest_lengths"), py::arg("length_labels"), py::arg("ui_scale"), py::arg("theme"));
}
