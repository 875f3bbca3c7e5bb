// lagrange_lab._core: measurements over a run — the first flip of a swinging arm (the flip map's measure, stepped in
// C++ and stopped there) and the engine's period meter and exact pendulum period (lagrange/period.h).
#include <pybind11/stl.h>

#include <cmath>
#include <numbers>

#include "binding.h"
#include "lagrange/period.h"

namespace lagrange::python {

// The time of the first flip: an arm (anchor, bob) turning over the top, its angle from the downward vertical,
// followed continuously from the start, reaching ±π. NaN when none came within `steps`.
double first_flip(Held& held, long steps, const std::vector<std::pair<int, int>>& arms) {
  World& world = held.sim.world();
  if (held.sim.size() != 1) throw Error("first_flip: one lane only");
  const Vec3 g = world.settings().gravity;
  if (!(glm::length(g) > 0.0)) throw Error("first_flip: needs gravity (the flip is over the top)");
  const Vec3 down = glm::normalize(g);
  // The plane of the swing: down and the horizontal axis across it (x, unless gravity is along x).
  const Vec3 across = std::abs(down.x) > 0.9 ? Vec3(0, 1, 0) : glm::normalize(Vec3(1, 0, 0) - down * down.x);
  for (const auto& [a, b] : arms)
    if (a < 0 || b < 0 || a >= static_cast<int>(world.particle_count()) || b >= static_cast<int>(world.particle_count()))
      throw Error("first_flip: arm (" + std::to_string(a) + ", " + std::to_string(b) + ") names a particle the scene "
                  "does not have");
  std::vector<double> angle(arms.size());
  const auto angle_of = [&](std::size_t k) {
    const Vec3 d = world.state().position[arms[k].second] - world.state().position[arms[k].first];
    return std::atan2(glm::dot(d, across), glm::dot(d, down));
  };
  for (std::size_t k = 0; k < arms.size(); ++k) angle[k] = angle_of(k);
  double flipped = NAN;
  struct Flipped {};
  try {
    held.step(steps, [&](std::size_t) {
      for (std::size_t k = 0; k < arms.size(); ++k) {
        const double now = angle_of(k);
        double turn = now - std::remainder(angle[k], 2.0 * std::numbers::pi);
        turn = std::remainder(turn, 2.0 * std::numbers::pi);
        angle[k] += turn;
        if (std::abs(angle[k]) > std::numbers::pi) {
          flipped = world.time();
          throw Flipped{};
        }
      }
    });
  } catch (const Flipped&) {
  }
  return flipped;
}

void bind_measures(py::module_& m) {
  py::class_<PeriodMeter>(m, "PeriodMeter", "The period timer of run --measure period and the window's Measure "
                                            "strip: midline crossings of one particle's swing")
      .def(py::init<>())
      .def("sample", [](PeriodMeter& meter, double t, const std::vector<double>& p) {
        if (p.size() < 2 || p.size() > 3) throw Error("sample: a position is (x, y) or (x, y, z)");
        meter.sample(t, Vec3(p[0], p[1], p.size() == 3 ? p[2] : 0.0));
      }, py::arg("time"), py::arg("position"))
      .def("clear", &PeriodMeter::clear)
      .def_property_readonly("samples", &PeriodMeter::samples)
      .def("result", [](const PeriodMeter& meter) -> py::object {
        const auto r = meter.result();
        if (!r) return py::none();
        py::dict d;
        d["period"] = r->period;
        d["spread"] = r->spread;
        d["intervals"] = r->intervals;
        d["axis"] = "xyz"[r->axis] + std::string();
        return d;
      }, "None until a whole period was seen");
  m.def("pendulum_period", [](double length, double g, double amplitude) {
    if (!(length > 0.0) || !(g > 0.0) || !(amplitude >= 0.0 && amplitude < std::numbers::pi))
      throw Error("pendulum_period: needs length > 0, g > 0 and 0 <= amplitude < pi");
    const PendulumPeriod p = pendulum_period(length, g, amplitude);
    py::dict d;
    d["exact"] = p.exact;
    d["small_angle"] = p.small_angle;
    return d;
  }, py::arg("length"), py::arg("g"), py::arg("amplitude"),
     "The engine's exact period 4 sqrt(L/g) K(sin(amplitude/2)) and the small-angle 2 pi sqrt(L/g), seconds");
}

}  // namespace lagrange::python
