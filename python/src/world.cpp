// lagrange_lab._core: worlds, lanes, states and runs. A World or a Lanes holds a lagrange::Simulation (Held), so
// `step`, `run`, scripted drags and failures are those of `lagrange-lab run`: the same sequence, the same bits, the
// same messages. Loops run in C++ with the GIL released; arrays handed out are read-only copies (docs/python.md).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <chrono>
#include <cmath>
#include <cstring>

#include "binding.h"
#include "lagrange/measure.h"
#include "lagrange/period.h"
#include "lagrange/text.h"
#include "lagrange/trajectory.h"
#include "options/drag_option.h"

namespace lagrange::python {

Held::Held(Scene s, const Settings& settings, std::span<const LaneSpec> specs)
    : scene(std::move(s)), sim(scene, settings, specs) {
  install_rules();
}

Held::Held(const Held& other) : scene(other.scene), sim(other.sim), max_violation(other.max_violation) {
  install_rules();  // the copied rule refers to the other Held
}

void Held::install_rules() {
  sim.rules() = SimulationRules{};
  sim.rules().failed = [this](std::size_t k, const SimLane& lane) {
    std::string text = run_failure(lane, max_violation);
    if (text.empty() || sim.size() == 1) return text;
    return "lane " + std::to_string(k + 1) + " (" + lane.spec.label() + "): " + text;
  };
}

void Held::step(long steps, const std::function<void(std::size_t)>& after_lane_step) {
  if (steps < 0) throw Error("steps: must be 0 or more, got " + std::to_string(steps));
  using Clock = std::chrono::steady_clock;
  Clock::time_point next_look = Clock::now() + std::chrono::milliseconds(100);
  py::gil_scoped_release release;
  for (long s = 1; s <= steps; ++s) {
    const SimulationStep result = sim.step(after_lane_step);
    if (result.failed()) throw SimulationFailed(result.failure);
    // Ctrl-C (a notebook's interrupt) ends a long loop: a look at the clock every 64 steps, at Python's signals
    // every 0.1 s.
    if ((s & 63) == 0 && Clock::now() >= next_look) {
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      next_look = Clock::now() + std::chrono::milliseconds(100);
    }
  }
}

void Held::set_settings(const Settings& settings) {
  sim.world().set_settings(settings);
  for (std::size_t k = 1; k < sim.size(); ++k)
    sim.lane(k).world.set_settings(lane_settings(sim.world().settings(), sim.lane(k).spec));
}

namespace {

// The rows of `run --csv` (trajectory.h), kept in memory for one lane; its period meter when asked.
struct Recording {
  std::vector<long> step;
  std::vector<double> values[5];
  std::vector<Vec3> position, velocity;
  // A scene with contacts: run --csv's contacts, impacts and obstacle<k>_f{x,y,z} (mean force over the step).
  std::vector<std::int64_t> contacts, impacts;
  std::vector<Vec3> obstacle_force;
  std::size_t obstacles = 0;
  bool with_contacts = false;
  int timed = -1;
  PeriodMeter meter;
  std::optional<PendulumPeriod> pendulum;

  void add(const World& world) {
    const TrajectorySample sample = trajectory_sample(world);
    step.push_back(sample.step);
    for (int c = 0; c < 5; ++c) values[c].push_back(sample.values[c]);
    position.insert(position.end(), world.state().position.begin(), world.state().position.end());
    velocity.insert(velocity.end(), world.state().velocity.begin(), world.state().velocity.end());
    with_contacts = world.model().contacts().any();
    if (!with_contacts) return;
    obstacles = world.model().contacts().obstacles.size();
    contacts.push_back(contact_count(world.state()));
    impacts.push_back(world.state().contacts.impacts);
    for (std::size_t k = 0; k < obstacles; ++k)
      obstacle_force.push_back(lagrange::obstacle_force(world.state(), static_cast<int>(k)));
  }

  py::dict to_dict(std::size_t particles) const {
    py::dict d;
    const auto rows = static_cast<py::ssize_t>(step.size());
    d[kTrajectoryColumns[0]] = py::array_t<std::int64_t>(rows, reinterpret_cast<const std::int64_t*>(step.data()));
    for (int c = 0; c < 5; ++c) d[kTrajectoryColumns[c + 1]] = py::array_t<double>(rows, values[c].data());
    const std::vector<py::ssize_t> shape{rows, static_cast<py::ssize_t>(particles), 3};
    d["positions"] = py::array_t<double>(shape, reinterpret_cast<const double*>(position.data()));
    d["velocities"] = py::array_t<double>(shape, reinterpret_cast<const double*>(velocity.data()));
    if (with_contacts) {
      d["contacts"] = py::array_t<std::int64_t>(rows, contacts.data());
      d["impacts"] = py::array_t<std::int64_t>(rows, impacts.data());
      for (std::size_t k = 0; k < obstacles; ++k)
        for (int axis = 0; axis < 3; ++axis) {
          py::array_t<double> column(rows);
          for (py::ssize_t r = 0; r < rows; ++r)
            column.mutable_data()[r] = obstacle_force[static_cast<std::size_t>(r) * obstacles + k][axis];
          d[py::str("obstacle" + std::to_string(k) + "_f" + "xyz"[axis])] = column;
        }
    }
    if (timed >= 0) {
      py::dict p;
      p["particle"] = timed;
      if (const auto r = meter.result()) {
        p["period"] = r->period;
        p["spread"] = r->spread;
        p["intervals"] = r->intervals;
        p["axis"] = "xyz"[r->axis] + std::string();
      } else {
        p["period"] = py::none();
      }
      p["exact"] = pendulum ? py::cast(pendulum->exact) : py::none();
      p["small_angle"] = pendulum ? py::cast(pendulum->small_angle) : py::none();
      p["amplitude"] = pendulum ? py::cast(pendulum->amplitude) : py::none();
      d["period"] = p;
    }
    return d;
  }
};
static_assert(sizeof(long) == sizeof(std::int64_t) && sizeof(Vec3) == 3 * sizeof(double));

// `run`'s loop (app/cli/run.cpp, step_run): the starting rows, then after each lane's step its period meter and, on
// the steps whose number is a multiple of `every`, its row.
std::vector<Recording> record(Held& held, long steps, long every, std::optional<int> period) {
  if (every < 1) throw Error("every: must be at least 1, got " + std::to_string(every));
  Simulation& sim = held.sim;
  std::vector<Recording> lanes(sim.size());
  const long rows = steps / every + 2;
  for (std::size_t k = 0; k < lanes.size(); ++k) {
    const World& w = sim.world(k);
    Recording& r = lanes[k];
    for (auto& v : r.values) v.reserve(static_cast<std::size_t>(rows));
    r.position.reserve(static_cast<std::size_t>(rows) * w.particle_count());
    r.velocity.reserve(static_cast<std::size_t>(rows) * w.particle_count());
    if (period) {
      if (*period < 0 || *period >= static_cast<int>(w.particle_count()))
        throw Error("period: the scene has " + std::to_string(w.particle_count()) + " particles, got " +
                    std::to_string(*period));
      if (w.model().fixed(*period)) throw Error("period: particle " + std::to_string(*period) + " is fixed");
      r.timed = *period;
      r.pendulum = simple_pendulum_period(w.model(), w.state(), *period);
      r.meter.sample(w.time(), w.state().position[*period]);
    }
    r.add(w);
  }
  held.step(steps, [&](std::size_t k) {
    const World& w = sim.world(k);
    Recording& r = lanes[k];
    if (r.timed >= 0) r.meter.sample(w.time(), w.state().position[r.timed]);
    if (w.step_count() % every == 0) r.add(w);
  });
  return lanes;
}

// A (n, 3) array into a world's positions or velocities: the shape checked, every number finite, z = 0 in 2D.
void assign_vectors(const World& world, std::vector<Vec3>& target, const py::handle& value, const char* what) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!a) throw py::type_error(std::string(what) + ": expected an array of numbers");
  const std::size_t n = world.particle_count();
  std::string shape = "(";
  for (py::ssize_t d = 0; d < a.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(a.shape(d));
  shape += a.ndim() == 1 ? ",)" : ")";
  if (a.ndim() != 2 || a.shape(0) != static_cast<py::ssize_t>(n) || a.shape(1) != 3)
    throw Error(std::string(what) + ": expected an array of shape (" + std::to_string(n) + ", 3), got " + shape);
  const double* p = a.data();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 v(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    if (!finite(v)) throw Error(std::string(what) + "[" + std::to_string(i) + "]: must be finite");
    if (world.dimension() == 2 && v.z != 0.0)
      throw Error(std::string(what) + "[" + std::to_string(i) + "]: z must be 0 in a 2D scene");
  }
  std::memcpy(target.data(), p, n * sizeof(Vec3));
}

// A Python World: lane `lane` of a Held (a World of its own holds one lane; Lanes hand out views of theirs).
struct PyWorld {
  std::shared_ptr<Held> held;
  std::size_t lane = 0;

  World& world() const { return held->sim.world(lane); }
  void only_lane(const char* what) const {
    if (held->sim.size() != 1)
      throw Error(std::string(what) + ": a lane steps with the others (Lanes." + what + ")");
  }
};

std::shared_ptr<Held> make_held(const Scene& scene, const py::dict& settings, std::span<const LaneSpec> specs) {
  return std::make_shared<Held>(scene, apply_settings(scene.settings, settings), specs);
}

std::vector<LaneSpec> lane_specs(const py::handle& lanes) {
  std::string text;
  if (py::isinstance<py::str>(lanes)) {
    text = lanes.cast<std::string>();
  } else {
    for (const py::handle item : lanes) {
      if (!text.empty()) text += ',';
      text += py::str(item).cast<std::string>();
    }
  }
  try {
    return parse_lanes(text);
  } catch (const Error& error) {
    throw Error(std::string("lanes: ") + error.what());
  }
}

void set_drags(Held& held, const py::handle& drags, const std::string& model) {
  cli::DragOptions options;
  const auto parsed = find_drag_model(model);
  if (!parsed) throw Error("drag model: unknown " + lagrange::quoted(model) + " (hard, spring)");
  options.model = *parsed;
  for (const py::handle item : drags) {
    std::string text;
    if (py::isinstance<py::str>(item)) {
      text = item.cast<std::string>();
    } else {  // (particle, (x, y[, z]), t0, t1)
      const py::sequence d = py::reinterpret_borrow<py::sequence>(item);
      if (d.size() != 4) throw Error("drag: expected (particle, target, start, end), got " + py::repr(item).cast<std::string>());
      std::vector<double> target;
      for (const py::handle c : d[1]) target.push_back(py::float_(py::reinterpret_borrow<py::object>(c)));
      if (target.size() == 2) target.push_back(0.0);
      if (target.size() != 3) throw Error("drag: the target is (x, y) or (x, y, z)");
      text = py::str(d[0]).cast<std::string>();
      for (double v : target) text.append(",").append(py::repr(py::float_(v)).cast<std::string>());
      for (int k : {2, 3})
        text.append(",").append(py::repr(py::float_(py::reinterpret_borrow<py::object>(d[k]))).cast<std::string>());
    }
    try {
      options.drags.push_back(cli::parse_drag(text));
    } catch (const cli::UsageError& error) {
      throw Error(std::string("drag: ") + error.what());
    }
  }
  try {
    cli::check_drags(options, held.sim.world());
  } catch (const cli::UsageError& error) {
    throw Error(error.what());
  }
  DragSettings settings;
  settings.model = options.model;
  if (std::string problem = held.sim.set_script(options.drags, settings); !problem.empty()) throw Error(problem);
}

py::bytes raw(const void* data, std::size_t bytes) { return py::bytes(static_cast<const char*>(data), bytes); }
template <class T>
void unraw(const py::bytes& b, std::vector<T>& out) {
  const std::string s = b;
  out.resize(s.size() / sizeof(T));
  std::memcpy(out.data(), s.data(), out.size() * sizeof(T));
}

void bind_state(py::module_& m) {
  py::class_<State>(m, "State", "A world's state as a plain value: positions, velocities, time, step, row forces, "
                                "work. set_state() puts it back bit for bit; it pickles.")
      .def_property_readonly("time", [](const State& s) { return s.time; })
      .def_property_readonly("step", [](const State& s) { return s.step; })
      .def_property_readonly("positions", [](const State& s) { return vectors_array(s.position.data(), s.position.size()); })
      .def_property_readonly("velocities", [](const State& s) { return vectors_array(s.velocity.data(), s.velocity.size()); })
      .def_property_readonly("multipliers", [](const State& s) {
        return read_only(py::array_t<double>(static_cast<py::ssize_t>(s.row_force.size()), s.row_force.data()));
      })
      .def("__eq__", [](const State& a, const State& b) {  // bit for bit
        const auto same = [](const auto& x, const auto& y) {
          return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
        };
        return same(a.position, b.position) && same(a.velocity, b.velocity) && same(a.row_force, b.row_force) &&
               a.step == b.step && std::memcmp(&a.time, &b.time, sizeof(double)) == 0 && a.newton_lost == b.newton_lost;
      })
      .def("__repr__", [](const State& s) {
        return "<lagrange_lab.State t=" + format_number(s.time) + " s, step " + std::to_string(s.step) + ", " +
               std::to_string(s.position.size()) + " particles>";
      })
      .def(py::pickle(
          [](const State& s) {
            return py::make_tuple(raw(s.position.data(), s.position.size() * sizeof(Vec3)),
                                  raw(s.velocity.data(), s.velocity.size() * sizeof(Vec3)),
                                  raw(s.row_force.data(), s.row_force.size() * sizeof(double)), s.step, s.time,
                                  s.clock_time, s.clock_step, s.work.mouse, s.work.damping, s.start_energy,
                                  s.work.contacts, s.newton_lost);
          },
          [](const py::tuple& t) {
            if (t.size() != 11 && t.size() != 12) throw Error("State: not a pickled state");
            State s;
            unraw(t[0].cast<py::bytes>(), s.position);
            unraw(t[1].cast<py::bytes>(), s.velocity);
            unraw(t[2].cast<py::bytes>(), s.row_force);
            s.step = t[3].cast<long>();
            s.time = t[4].cast<double>();
            s.clock_time = t[5].cast<double>();
            s.clock_step = t[6].cast<long>();
            s.work.mouse = t[7].cast<double>();
            s.work.damping = t[8].cast<double>();
            s.start_energy = t[9].cast<double>();
            s.work.contacts = t[10].cast<double>();
            if (t.size() == 12) s.newton_lost = t[11].cast<int>();  // pickled before it existed: 0
            return s;
          }));
}

}  // namespace

void bind_world(py::module_& m) {
  bind_state(m);
  py::class_<PyWorld>(m, "World", "A scene being simulated: one model, one state, one solver (lagrange::World), "
                                  "stepped by the stepping unit of `lagrange-lab run`.")
      .def(py::init([](const Scene& scene, const py::kwargs& settings) {
             return PyWorld{make_held(scene, settings, {}), 0};
           }),
           py::arg("scene"))
      .def(py::init([](const std::filesystem::path& path, const py::kwargs& settings) {
             return PyWorld{make_held(load_file(path.string()), settings, {}), 0};
           }),
           py::arg("path"))
      .def("step", [](PyWorld& w, long n) {
        w.only_lane("step");
        w.held->step(n);
      }, py::arg("n") = 1, "Steps n times in C++ (the GIL released). SimulationFailed as `run` fails (exit 3).")
      .def("_run", [](PyWorld& w, long steps, long every, std::optional<int> period) {
        w.only_lane("run");
        const auto lanes = record(*w.held, steps, every, period);
        return lanes[0].to_dict(w.world().particle_count());
      }, py::arg("steps"), py::arg("every") = 1, py::arg("period") = py::none(),
         "run --csv in one call: a dict of NumPy arrays (step, t, kinetic, potential, energy, violation, positions, "
         "velocities; with contacts also contacts, impacts, obstacle<k>_fx/_fy/_fz), the starting row and every step whose "
         "number is a multiple of `every`; period=P also times "
         "particle P (run --measure period)")
      .def("first_flip", [](PyWorld& w, long steps, const std::vector<std::pair<int, int>>& arms) {
        return first_flip(*w.held, steps, arms);
      }, py::arg("steps"), py::arg("arms"),
         "Steps until an arm (anchor, bob) first turns over the top (its angle from the downward vertical reaches "
         "±pi) or `steps` ran; the time of the flip, or NaN")
      .def_property_readonly("time", [](const PyWorld& w) { return w.world().time(); })
      .def_property_readonly("step_count", [](const PyWorld& w) { return w.world().step_count(); })
      .def_property_readonly("dimension", [](const PyWorld& w) { return w.world().dimension(); })
      .def_property_readonly("particle_count", [](const PyWorld& w) { return w.world().particle_count(); })
      .def("__len__", [](const PyWorld& w) { return w.world().particle_count(); })
      .def_property("positions",
          [](const PyWorld& w) { return vectors_array(w.world().state().position.data(), w.world().particle_count()); },
          [](PyWorld& w, const py::handle& v) { assign_vectors(w.world(), w.world().state().position, v, "positions"); },
          "(n, 3) float64: a read-only copy; assign a whole (n, 3) array to move the particles")
      .def_property("velocities",
          [](const PyWorld& w) { return vectors_array(w.world().state().velocity.data(), w.world().particle_count()); },
          [](PyWorld& w, const py::handle& v) { assign_vectors(w.world(), w.world().state().velocity, v, "velocities"); },
          "(n, 3) float64: a read-only copy; assign a whole (n, 3) array to set them")
      .def_property_readonly("masses", [](const PyWorld& w) {
        const Model& model = w.world().model();
        py::array_t<double> a(static_cast<py::ssize_t>(model.particle_count()));
        for (std::size_t i = 0; i < model.particle_count(); ++i) a.mutable_data()[i] = model.mass(i);
        return read_only(std::move(a));
      })
      .def_property_readonly("fixed", [](const PyWorld& w) {
        const Model& model = w.world().model();
        py::array_t<bool> a(static_cast<py::ssize_t>(model.particle_count()));
        for (std::size_t i = 0; i < model.particle_count(); ++i) a.mutable_data()[i] = model.fixed(i);
        return a;
      })
      .def("_energy", [](const PyWorld& w) {
        const Energy e = w.world().energy();
        return py::make_tuple(e.kinetic, e.potential, e.total());
      })
      .def("max_violation", [](const PyWorld& w, bool relative) { return w.world().max_violation(relative); },
           py::arg("relative") = false, "max |C| over the scene's rigid rows (metres), or max |C|/L")
      .def("velocity_violation", [](const PyWorld& w) { return w.world().max_velocity_violation(); },
           "max |J v| over the scene's rigid rows, m/s")
      .def_property_readonly("multipliers", [](const PyWorld& w) {
        const auto& f = w.world().state().row_force;
        return read_only(py::array_t<double>(static_cast<py::ssize_t>(f.size()), f.data()));
      }, "lambda per constraint row from the last substep, N (negative = tension)")
      .def_property_readonly("work", [](const PyWorld& w) {
        py::dict d;
        d["mouse"] = w.world().work().mouse;
        d["damping"] = w.world().work().damping;
        d["contacts"] = w.world().work().contacts;
        return d;
      })
      .def_property_readonly("drift", [](const PyWorld& w) { return w.held->sim.lane(w.lane).accounts.drift(w.world()); },
                             "E - E0 - W_mouse - W_damping - W_contacts, J (run's drift line)")
      .def_property_readonly("accounts", [](const PyWorld& w) {
        const LaneAccounts& a = w.held->sim.lane(w.lane).accounts;
        py::dict d;
        d["start_energy"] = a.start_energy;
        d["worst_violation"] = a.worst_violation;
        d["worst_velocity"] = a.worst_velocity;
        d["max_drift"] = a.max_drift;
        d["steps"] = a.steps;
        d["mean_iterations"] = a.mean_iterations();
        d["recoveries"] = a.recoveries;
        d["failures"] = a.failures;
        d["rollbacks"] = a.rollbacks;
        d["held"] = a.held;
        d["fallbacks"] = a.fallbacks;
        return d;
      }, "run's summary since the start: energy balance, worst violations, iterations, failures")
      .def_property("solver", [](const PyWorld& w) { return w.world().settings().solver; },
          [](PyWorld& w, const std::string& id) {
            Settings s = w.world().settings();
            if (std::string problem = set_setting(s, "solver", id); !problem.empty()) throw Error(problem);
            if (w.lane == 0) w.held->set_settings(s);
            else w.world().set_settings(s);
          }, "the solver id; setting it switches live, as keys 1-5 do in the window")
      .def_property("settings", [](const PyWorld& w) { return settings_dict(w.world().settings()); },
          [](PyWorld& w, const py::dict& d) {
            const Settings s = apply_settings(w.world().settings(), d);
            if (w.lane == 0) w.held->set_settings(s);
            else w.world().set_settings(s);
          }, "a dict by --set names (a copy); assign a dict of some keys to change them between steps")
      .def("set_settings", [](PyWorld& w, const py::kwargs& kw) {
        const Settings s = apply_settings(w.world().settings(), kw);
        if (w.lane == 0) w.held->set_settings(s);
        else w.world().set_settings(s);
      })
      .def_property("max_violation_limit", [](const PyWorld& w) { return w.held->max_violation; },
          [](PyWorld& w, double limit) {
            if (!(limit > 0.0 && limit <= 1e300)) throw Error("max_violation_limit: must be in > 0 .. 1e300");
            w.held->max_violation = limit;
          }, "max |C|/L above which a step fails (run --max-violation; default 1)")
      .def("state", [](const PyWorld& w) { return w.world().state(); }, "a copy of the state (a plain value)")
      .def("set_state", [](PyWorld& w, const State& s) {
        const World& world = w.world();
        if (s.position.size() != world.particle_count() || s.velocity.size() != world.particle_count())
          throw Error("set_state: the state has " + std::to_string(s.position.size()) + " particles, the world " +
                      std::to_string(world.particle_count()));
        w.world().restore(s);
      }, py::arg("state"), "puts a state of this world back: stepping on gives the same bits as before")
      .def("set_drags", [](PyWorld& w, const py::handle& drags, const std::string& model) {
        set_drags(*w.held, drags, model);
      }, py::arg("drags"), py::arg("model") = "hard",
         "scripted drags, as run --drag: each (particle, (x, y[, z]), start, end) or 'P,X,Y,Z,T0,T1'")
      .def("simple_pendulum_period", [](const PyWorld& w, int particle) -> py::object {
        const World& world = w.world();
        if (particle < 0 || particle >= static_cast<int>(world.particle_count())) throw Error("particle: out of range");
        const auto p = simple_pendulum_period(world.model(), world.state(), particle);
        if (!p) return py::none();
        py::dict d;
        d["exact"] = p->exact;
        d["small_angle"] = p->small_angle;
        d["amplitude"] = p->amplitude;
        d["length"] = p->length;
        d["pivot"] = p->pivot;
        return d;
      }, py::arg("particle"), "the exact period when the particle is a simple pendulum here, else None")
      .def("scene", [](const PyWorld& w) { return scene_of(w.world(), &w.held->scene); },
           "the scene of the world as it is now, with its state (run --save-state)")
      .def("copy", [](const PyWorld& w) {
        w.only_lane("copy");
        return PyWorld{std::make_shared<Held>(*w.held), 0};
      })
      .def("__copy__", [](const PyWorld& w) { return PyWorld{std::make_shared<Held>(*w.held), 0}; })
      .def("__deepcopy__", [](const PyWorld& w, py::dict) { return PyWorld{std::make_shared<Held>(*w.held), 0}; })
      .def("_lane_specs", [](const PyWorld& w) { return lanes_text(w.held->sim.specs()); })
      .def(py::pickle(
          [](const PyWorld& w) {  // the world as its saved-state scene file: it continues bit for bit
            w.only_lane("pickle");
            return py::make_tuple(write_scene(scene_of(w.world(), &w.held->scene)), w.held->scene.source,
                                  w.held->max_violation);
          },
          [](const py::tuple& t) {
            if (t.size() != 3) throw Error("World: not a pickled world");
            Scene scene = parse_scene(t[0].cast<std::string>(), t[1].cast<std::string>(), SceneLimits::unlimited());
            const Settings settings = scene.settings;
            PyWorld w{std::make_shared<Held>(std::move(scene), settings, std::span<const LaneSpec>{}), 0};
            w.held->max_violation = t[2].cast<double>();
            return w;
          }))
      .def("__repr__", [](const PyWorld& w) {
        return "<lagrange_lab.World '" + w.held->scene.name + "' t=" + format_number(w.world().time()) + " s, " +
               std::to_string(w.world().particle_count()) + " particles, " + w.world().settings().solver + ">";
      });

  py::class_<Held, std::shared_ptr<Held>>(m, "Lanes", "A scene run as 2-4 lanes in lockstep, each with its own solver "
                                                    "or settings (run --lanes)")
      .def(py::init([](const Scene& scene, const py::handle& lanes, const py::kwargs& settings) {
             const std::vector<LaneSpec> specs = lane_specs(lanes);
             return make_held(scene, settings, specs);
           }),
           py::arg("scene"), py::arg("lanes"))
      .def(py::init([](const std::filesystem::path& path, const py::handle& lanes, const py::kwargs& settings) {
             const std::vector<LaneSpec> specs = lane_specs(lanes);
             return make_held(load_file(path.string()), settings, specs);
           }),
           py::arg("path"), py::arg("lanes"))
      .def("step", [](Held& h, long n) { h.step(n); }, py::arg("n") = 1)
      .def("_run", [](Held& h, long steps, long every, std::optional<int> period) {
        const auto lanes = record(h, steps, every, period);
        py::list list;
        for (std::size_t k = 0; k < lanes.size(); ++k) list.append(lanes[k].to_dict(h.sim.world(k).particle_count()));
        return list;
      }, py::arg("steps"), py::arg("every") = 1, py::arg("period") = py::none(),
         "run --lanes --csv in one call: one dict per lane, as World.run's")
      .def("__len__", [](const Held& h) { return h.sim.size(); })
      .def("__getitem__", [](const std::shared_ptr<Held>& h, long k) {
        const long n = static_cast<long>(h->sim.size());
        if (k < 0) k += n;
        if (k < 0 || k >= n) throw py::index_error("lane index out of range");
        return PyWorld{h, static_cast<std::size_t>(k)};
      })
      .def_property_readonly("labels", [](const Held& h) {
        std::vector<std::string> labels;
        for (const SimLane& lane : h.sim.lanes()) labels.push_back(lane.spec.label());
        return labels;
      })
      .def_property_readonly("names", [](const Held& h) {
        std::vector<std::string> names;
        for (const SimLane& lane : h.sim.lanes()) names.push_back(lane.spec.display_name());
        return names;
      })
      .def_property_readonly("colours", [](const Held& h) {
        py::list colours;
        const std::vector<LaneSpec> specs = h.sim.specs();
        for (std::size_t k = 0; k < specs.size(); ++k) {
          const Colour c = lane_colour(specs, static_cast<int>(k));
          colours.append(py::make_tuple(c.r, c.g, c.b));
        }
        return colours;
      })
      .def_property_readonly("time", [](const Held& h) { return h.sim.world().time(); })
      .def("set_drags", [](Held& h, const py::handle& drags, const std::string& model) { set_drags(h, drags, model); },
           py::arg("drags"), py::arg("model") = "hard")
      .def_property("max_violation_limit", [](const Held& h) { return h.max_violation; },
                    [](Held& h, double limit) {
                      if (!(limit > 0.0 && limit <= 1e300)) throw Error("max_violation_limit: must be in > 0 .. 1e300");
                      h.max_violation = limit;
                    })
      .def("_lane_specs", [](const Held& h) { return lanes_text(h.sim.specs()); })
      .def("_scenes", [](const Held& h) {
        std::vector<Scene> scenes;
        for (const SimLane& lane : h.sim.lanes()) scenes.push_back(scene_of(lane.world, &h.scene));
        return scenes;
      });
}

}  // namespace lagrange::python
