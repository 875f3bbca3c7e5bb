// lagrange_lab._core: the engine for Python (docs/python.md). This file: the module, the errors as Python exceptions,
// settings by their `--set` names, the solver and settings tables, and scenes (built piece by piece through the scene
// reader itself, so a scene made in code meets the checks and messages of a scene file).
#include <pybind11/stl.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "binding.h"
#include "lagrange/solver.h"
#include "lagrange/text.h"
#include "lagrange/trajectory.h"

namespace lagrange::python {
namespace {

// A value of a keyword argument as `--set` text: numbers at full precision (Python's repr is the shortest text that
// reads back to the same double), sequences joined by commas (gravity), strings as they are.
std::string setting_text(const py::handle& value) {
  if (py::isinstance<py::str>(value) || py::isinstance<py::bool_>(value)) return py::str(value).cast<std::string>();
  if (py::hasattr(value, "__index__")) return py::str(py::int_(py::reinterpret_borrow<py::object>(value)));
  if (!py::hasattr(value, "__len__") && py::hasattr(value, "__float__"))
    return py::repr(py::float_(py::reinterpret_borrow<py::object>(value))).cast<std::string>();
  if (py::hasattr(value, "__iter__")) {
    std::string text;
    for (const py::handle item : value) {
      if (!text.empty()) text += ',';
      text += setting_text(item);
    }
    return text;
  }
  return py::str(value).cast<std::string>();
}

}  // namespace

// Reads a scene file: FileNotFoundError when there is no such file, ValueError for every other problem, both with
// the loader's message ("FILE: cannot open file: No such file or directory").
Scene load_file(const std::string& path) {
  try {
    return load_scene_file(path);
  } catch (const SceneError& error) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) {
      py::object e = py::module_::import("builtins").attr("FileNotFoundError")(error.what());
      PyErr_SetObject(PyExc_FileNotFoundError, e.ptr());
      throw py::error_already_set();
    }
    throw;
  }
}

namespace {

py::array_t<double> scene_positions(const Scene& scene) {
  std::vector<Vec3> p;
  for (const ParticleDef& def : scene.particles) p.push_back(def.position);
  return vectors_array(p.data(), p.size());
}

}  // namespace

Settings apply_settings(Settings base, const py::dict& settings) {
  for (const auto& [key, value] : settings) {
    const std::string k = py::str(key).cast<std::string>();
    if (std::string problem = set_setting(base, k, setting_text(value)); !problem.empty()) throw Error(problem);
  }
  if (std::string problem = validate(base); !problem.empty()) throw Error(problem);
  return base;
}

py::dict settings_dict(const Settings& settings) {
  py::dict d;
  for (const SettingInfo& info : setting_table()) {
    const std::string text = get_setting(settings, info.key);
    switch (setting_type(info.key)) {
      case SettingType::Count: d[info.key] = std::stol(text); break;
      case SettingType::Solver: d[info.key] = text; break;
      case SettingType::Vector: {
        const Vec3 g = settings.gravity;  // the one vector setting (settings.cpp)
        d[info.key] = py::make_tuple(g.x, g.y, g.z);
        break;
      }
      case SettingType::Number: d[info.key] = std::stod(text); break;
    }
  }
  return d;
}

py::array_t<double> read_only(py::array_t<double> array) {
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

py::array_t<double> vectors_array(const Vec3* data, std::size_t count) {
  py::array_t<double> a({static_cast<py::ssize_t>(count), py::ssize_t{3}});
  double* out = a.mutable_data();
  for (std::size_t i = 0; i < count; ++i) {
    out[3 * i] = data[i].x;
    out[3 * i + 1] = data[i].y;
    out[3 * i + 2] = data[i].z;
  }
  return read_only(std::move(a));
}

void bind_scene(py::module_& m) {
  py::class_<Scene>(m, "Scene", "A scene as data (docs/scenes.md): load one (lagrange_lab.load_scene) or build one "
                               "with add_particle, add_constraint, add_chain and add_cloth, then World(scene).")
      .def(py::init([](int dimension, const std::string& name, const std::string& description, const py::kwargs& settings) {
             if (dimension != 2 && dimension != 3)
               throw Error("dimension: must be 2 or 3, got " + std::to_string(dimension));
             Scene s;
             s.dimension = dimension;
             s.name = name;
             s.description = description;
             s.settings = apply_settings(s.settings, settings);
             return s;
           }),
           py::arg("dimension") = 2, py::arg("name") = "Untitled scene", py::arg("description") = "")
      .def_static("_load", &load_file, py::arg("path"))
      .def_static("_parse", [](const std::string& text, const std::string& source) { return parse_scene(text, source); })
      .def_readonly("dimension", &Scene::dimension)
      .def_readwrite("name", &Scene::name)
      .def_readwrite("description", &Scene::description)
      .def_readonly("source", &Scene::source)
      .def_property_readonly("particle_count", [](const Scene& s) { return s.particles.size(); })
      .def_property_readonly("constraint_count", [](const Scene& s) { return s.constraints.size(); })
      .def_property_readonly("positions", &scene_positions, "(n, 3) float64, a read-only copy")
      .def_property_readonly("masses", [](const Scene& s) {
        std::vector<double> m;
        for (const ParticleDef& p : s.particles) m.push_back(p.mass);
        return py::array_t<double>(static_cast<py::ssize_t>(m.size()), m.data());
      })
      .def_property("settings", [](const Scene& s) { return settings_dict(s.settings); },
                    [](Scene& s, const py::dict& d) { s.settings = apply_settings(s.settings, d); })
      .def("set_settings", [](Scene& s, const py::kwargs& kw) { s.settings = apply_settings(s.settings, kw); })
      .def("_append_particle", [](Scene& s, const std::string& json, const std::string& path) {
        return append_particle_json(s, json, path);
      })
      .def("_append_constraint", [](Scene& s, const std::string& json, const std::string& path) {
        return append_constraint_json(s, json, path);
      })
      .def("_append_generator", [](Scene& s, const std::string& json, const std::string& path) {
        return append_generator_json(s, json, path);
      })
      .def("to_json", [](const Scene& s) { return write_scene(s); },
           "The scene as a scene file's JSON, every number at full precision")
      .def("__copy__", [](const Scene& s) { return Scene(s); })
      .def("__deepcopy__", [](const Scene& s, py::dict) { return Scene(s); })
      .def(py::pickle([](const Scene& s) { return py::make_tuple(write_scene(s), s.source); },
                      [](const py::tuple& t) {
                        Scene s = parse_scene(t[0].cast<std::string>(), t[1].cast<std::string>(),
                                              SceneLimits::unlimited());
                        return s;
                      }));
}

}  // namespace lagrange::python

PYBIND11_MODULE(_core, m) {
  using namespace lagrange;
  using namespace lagrange::python;
  m.doc() = "Lagrange Lab's engine for Python (docs/python.md); import lagrange_lab, not this module.";

  static py::exception<SimulationFailed> failed(m, "SimulationFailed", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const SimulationFailed& e) {
      failed(e.what());
    } catch (const SceneError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  m.def("solvers", [] {
    py::list list;
    for (const SolverInfo& s : solver_table()) {
      py::dict d;
      d["id"] = s.id;
      d["name"] = s.name;
      d["description"] = s.description;
      d["colour"] = py::make_tuple(s.colour.r, s.colour.g, s.colour.b);
      list.append(d);
    }
    return list;
  }, "The solver table: id, name, description, colour (the list of `lagrange-lab solvers` and keys 1-5)");
  m.def("setting_table", [] {
    py::list list;
    for (const SettingInfo& s : setting_table()) {
      py::dict d;
      d["key"] = s.key;
      d["unit"] = s.unit;
      d["description"] = s.description;
      d["range"] = range_text(s.key);
      d["default"] = settings_dict(Settings{})[s.key];
      list.append(d);
    }
    return list;
  }, "The settings table behind --set: key, unit, description, range, default");
  m.def("trajectory_columns", [](std::size_t particles) {
    py::list names;
    for (const char* c : kTrajectoryColumns) names.append(c);
    for (std::size_t i = 0; i < particles; ++i)
      for (const char* c : kParticleColumns) names.append(std::string(c) + std::to_string(i));
    return names;
  }, py::arg("particles") = 0, "The columns of run --csv (without lanes) for a scene of this many particles");
  m.attr("__engine_solver_ids__") = solver_ids();

  bind_scene(m);
  bind_world(m);
  bind_measures(m);
}
