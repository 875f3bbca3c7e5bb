// What the pieces of the _core module share: the errors as Python exceptions, settings from keyword arguments, and
// the simulation a Python World or Lanes holds. The binding is a thin face over the engine (docs/python.md): every
// step goes through lagrange::Simulation, the stepping unit of `run`, `shot`, `record` and the window.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lagrange/scene.h"
#include "lagrange/simulation.h"

namespace lagrange::python {

namespace py = pybind11;

// A step that failed as `run` defines it (lagrange::run_failure): raised as lagrange_lab.SimulationFailed, a
// RuntimeError, with run's message. The state is left where the failed step left it (NaN rolled back).
class SimulationFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `settings` (keyword arguments by their `--set` names) on top of `base`, each through the `--set` parser
// (set_setting): its ranges and messages. ValueError on an unknown key or a bad value.
Settings apply_settings(Settings base, const py::dict& settings);
// The settings as a dict of typed values (floats, ints, the solver id, gravity as a tuple).
py::dict settings_dict(const Settings& settings);

// What a World or a Lanes holds: the scene it was made from (names, radii and colours for pictures and saving), the
// simulation of one or more lanes, and run's limit on max |C|/L.
struct Held {
  Scene scene;
  Simulation sim;
  double max_violation = 1.0;  // `run --max-violation`'s default: a rod off by its whole length

  Held(Scene scene, const Settings& settings, std::span<const LaneSpec> specs);
  Held(const Held& other);
  // Steps every lane `steps` times (the GIL released; Ctrl-C checked now and then). SimulationFailed on a failure.
  void step(long steps, const std::function<void(std::size_t)>& after_lane_step = {});
  // Lane 1's settings changed, every later lane following with its own on top (as the window does).
  void set_settings(const Settings& settings);

 private:
  void install_rules();  // run's rule for a failed step, with this Held's limit
};

// Reads a scene file (load_scene_file): FileNotFoundError when there is no such file, ValueError for any other
// problem, with the loader's message.
Scene load_file(const std::string& path);

// A read-only NumPy copy of `count` rows of 3 doubles (writing to it raises ValueError: read-only).
py::array_t<double> vectors_array(const Vec3* data, std::size_t count);
py::array_t<double> read_only(py::array_t<double> array);

// Steps a one-lane simulation until an arm (anchor, bob) turns over the top (its angle from the downward vertical,
// followed continuously, reaches ±π) or `steps` ran: the time of that step, or NaN (measures.cpp).
double first_flip(Held& held, long steps, const std::vector<std::pair<int, int>>& arms);

void bind_scene(py::module_& m);
void bind_world(py::module_& m);
void bind_measures(py::module_& m);

}  // namespace lagrange::python
