// The scene reader: JSON text → Scene. The format, every key and every message are documented in docs/scenes.md;
// keep the two in step. The builder (Scene → World) is scene_builder.cpp, the writer (World → JSON) scene_writer.cpp.
//
// Every problem is thrown once, as SceneError("FILE: JSON.PATH: PROBLEM"). Parsing is all-or-nothing: a Scene is
// only returned when the whole file is valid. Checks that also apply to scenes built in code (positive mass, index
// range, a rod on two fixed particles, ...) live in scene_checks.h and the kind table (constraint_kinds.h) and run
// both here and in make_world. Reading the file, parsing it and the typed getters that put the path in every
// message are the JSON layer's (json_reader.h): this file says what a scene is, not how JSON is read.
#include "lagrange/scene.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "json_reader.h"
#include "lagrange/builders.h"
#include "lagrange/constraint_kinds.h"
#include "lagrange/settings.h"
#include "lagrange/text.h"
#include "scene_checks.h"

namespace lagrange {
namespace {

using json_detail::describe;
using json_detail::Json;
using json_detail::JsonReader;
using json_detail::suggestion;
using namespace scene_detail;

// The top-level keys that are shorthands for settings of the same name.
constexpr const char* kShorthandSettings[] = {"dt", "substeps", "solver", "gravity"};

void fail_on(const JsonReader& reader, const std::string& path, const std::optional<FieldProblem>& problem) {
  scene_detail::fail_on(reader.file(), path, problem);
}

// [r, g, b] in 0..1 or "#rrggbb".
Colour read_colour(const JsonReader& reader, const Json& value, const std::string& path) {
  const char* shape = "must be [r, g, b] with each in 0..1, or \"#rrggbb\"";
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    unsigned rgb = 0;
    const auto hex_digit = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    const bool hex = text.size() == 7 && text[0] == '#' && std::all_of(text.begin() + 1, text.end(), hex_digit);
    if (!hex) reader.fail(path, std::string(shape) + ", got " + describe(value));
    std::from_chars(text.data() + 1, text.data() + 7, rgb, 16);
    return Colour{((rgb >> 16) & 0xff) / 255.0f, ((rgb >> 8) & 0xff) / 255.0f, (rgb & 0xff) / 255.0f};
  }
  if (!value.is_array() || value.size() != 3) reader.fail(path, std::string(shape) + ", got " + describe(value));
  float c[3];
  for (std::size_t k = 0; k < 3; ++k) {
    const double x = reader.number(value[k], join_index(path, k));
    if (x < 0.0 || x > 1.0) reader.fail(join_index(path, k), "must be between 0 and 1, got " + describe(value[k]));
    c[k] = static_cast<float>(x);
  }
  return Colour{c[0], c[1], c[2]};
}

// Applies one setting through set_setting(), the single place that checks settings. The JSON type expected is
// read off the default value's text: "x,y,z" is a vector, a number is a number, anything else a string.
void apply_setting(const JsonReader& reader, Settings& settings, const std::string& key, const Json& value,
                   const std::string& path) {
  const std::string example = get_setting(Settings{}, key);
  double ignored = 0.0;
  const bool numeric = std::from_chars(example.data(), example.data() + example.size(), ignored).ptr ==
                       example.data() + example.size();
  std::string text;
  if (example.find(',') != std::string::npos) {
    const Vec3 v = reader.vec(value, path);
    text = format_number(v.x) + "," + format_number(v.y) + "," + format_number(v.z);
  } else if (numeric && !example.empty()) {
    // Not number(): the range is set_setting's to check, and an integer is passed on as written.
    if (!value.is_number()) reader.fail(path, "must be a number, got " + describe(value));
    text = value.is_number_integer() ? value.dump() : format_number(reader.finite(value, path));
  } else {
    text = reader.string(value, path);
  }
  std::string problem = set_setting(settings, key, text);
  if (problem.empty()) return;
  if (problem.rfind(key + ": ", 0) == 0) problem.erase(0, key.size() + 2);  // the path already names the key
  reader.fail(path, problem);
}

std::vector<std::string> setting_keys() {
  std::vector<std::string> keys;
  for (const SettingInfo& info : setting_table()) keys.emplace_back(info.key);
  return keys;
}

Settings read_settings(const JsonReader& reader, const Json& root) {
  Settings settings;
  const std::vector<std::string> keys = setting_keys();
  if (root.contains("settings")) {
    const Json& object = reader.object(root["settings"], "settings");
    reader.check_keys(object, "settings", keys);
    for (const auto& [key, value] : object.items()) {
      if (root.contains(key))
        reader.fail(join_key("settings", key), "also given at the top level as " + in_quotes(key) + "; give it once");
      apply_setting(reader, settings, key, value, join_key("settings", key));
    }
  }
  for (const char* key : kShorthandSettings)
    if (root.contains(key)) apply_setting(reader, settings, key, root[key], key);
  if (std::string problem = validate(settings); !problem.empty()) reader.fail("settings", problem);
  return settings;
}

ParticleDef read_particle(const JsonReader& reader, const Json& value, const std::string& path) {
  const Json& object = reader.object(value, path);
  reader.check_keys(object, path, {"position", "velocity", "mass", "fixed", "radius", "colour"});
  ParticleDef p;
  p.position = reader.vec(reader.required(object, path, "position", "[x, y, z]"), join_key(path, "position"));
  reader.optional(object, path, "velocity", p.velocity);
  reader.optional(object, path, "fixed", p.fixed);
  if (object.contains("mass")) {
    if (p.fixed)
      reader.fail(join_key(path, "mass"), "a fixed particle has no mass (nothing can move it); remove \"mass\" or "
                                          "\"fixed\"");
    p.mass = reader.number(object["mass"], join_key(path, "mass"));
  }
  reader.optional(object, path, "radius", p.radius);
  if (object.contains("colour")) {
    p.colour = read_colour(reader, object["colour"], join_key(path, "colour"));
    p.has_colour = true;
  }
  fail_on(reader, path, particle_problem(p, reader.dimension()));
  return p;
}

// "particle": P for a kind of one particle, "particles": [A, B, ...] for more.
std::vector<int> read_particle_ids(const JsonReader& reader, const Json& object, const std::string& path,
                                   const ConstraintKind& kind) {
  const bool one = kind.arity == 1;
  const char* ids_key = one ? "particle" : "particles";
  const std::string ids_path = join_key(path, ids_key);
  const char* index = "a particle index (an integer)";
  if (one) return {reader.integer(reader.required(object, path, ids_key, "a particle index"), ids_path, index)};
  std::string shape = "[a";
  for (int k = 1; k < kind.arity; ++k) shape += k == 1 ? ", b" : k == 2 ? ", c" : ", d";
  shape += "]";
  const Json& ids = reader.array(reader.required(object, path, ids_key, shape.c_str()), ids_path);
  if (ids.size() != static_cast<std::size_t>(kind.arity))
    reader.fail(ids_path, "must list exactly " + std::to_string(kind.arity) + " particle indices " + shape +
                              ", got " + describe(ids));
  std::vector<int> particles;
  for (std::size_t k = 0; k < ids.size(); ++k) particles.push_back(reader.integer(ids[k], join_index(ids_path, k), index));
  return particles;
}

// Any kind of the table: "type", the particle(s), the kind's own keys, and "compliance" and "damping" for every kind.
ConstraintDef read_constraint(const JsonReader& reader, const Json& value, const std::string& path) {
  const Json& object = reader.object(value, path);
  const std::string type_path = join_key(path, "type");
  const std::vector<std::string> names = kind_names();
  std::string hint;
  for (std::size_t k = 0; k < names.size(); ++k)
    hint += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + in_quotes(names[k]);
  const std::string type = reader.string(reader.required(object, path, "type", hint.c_str()), type_path);
  const ConstraintKind* kind = find_kind(type);
  if (!kind) reader.fail(type_path, "unknown constraint type " + in_quotes(type) + suggestion(type, names));
  std::vector<std::string> allowed{"type", kind->arity == 1 ? "particle" : "particles", "compliance", "damping"};
  for (const KindField& field : kind->fields) allowed.emplace_back(field.key);
  reader.check_keys(object, path, allowed);

  ConstraintDef c;
  c.type = kind->name;
  c.particles = read_particle_ids(reader, object, path, *kind);
  for (const KindField& field : kind->fields) {
    if (!object.contains(field.key)) continue;
    const std::string field_path = join_key(path, field.key);
    if (field.type == FieldType::Number)
      c.set(field.key, reader.number(object[field.key], field_path));
    else
      c.set(field.key, reader.vec(object[field.key], field_path));
  }
  reader.optional(object, path, "compliance", c.compliance);
  reader.optional(object, path, "damping", c.damping);
  return c;
}

constexpr double kMaxSavedStep = 4503599627370496.0;  // 2^52

// "state": what a saved run carries beyond the particles' positions and velocities (write_scene).
SceneState read_state(const JsonReader& reader, const Json& value, std::size_t rows) {
  const std::string path = "state";
  const Json& object = reader.object(value, path);
  reader.check_keys(object, path, {"step", "time", "clock", "work", "start_energy", "row_force", "newton_lost", "contacts"});
  // Steps beyond 2^52 are no longer counted one by one by a double (the clock's t = t0 + (n - n0) dt); times beyond
  // 1e9 s (31 years), the bound of every number of a scene, would be replaced by the clock's (1e308 was).
  const auto step_count = [&](const Json& v, const std::string& at) {
    const double step = reader.finite(v, at);
    if (step < 0.0 || step != std::floor(step))
      reader.fail(at, "must be a whole number of steps (0 or more), got " + describe(v));
    if (step > kMaxSavedStep)
      reader.fail(at, "must be at most 4503599627370496 (2^52, where a double stops counting single steps), got " +
                          describe(v));
    return static_cast<long>(step);
  };
  const auto time = [&](const Json& v, const std::string& at) {
    const double t = reader.finite(v, at);
    if (t < 0.0) reader.fail(at, "must be a time of 0 s or more, got " + describe(v));
    if (t > 1e9) reader.fail(at, "must be a time of at most 1e9 s, got " + describe(v));
    return t;
  };
  SceneState state;
  if (object.contains("step")) state.step = step_count(object["step"], "state.step");
  if (object.contains("time")) state.time = time(object["time"], "state.time");
  if (object.contains("clock")) {
    const Json& clock = reader.object(object["clock"], "state.clock");
    reader.check_keys(clock, "state.clock", {"time", "step"});
    for (const char* key : {"time", "step"})
      if (!clock.contains(key)) reader.fail("state.clock", std::string("missing required key \"") + key + "\"");
    state.clock_time = time(clock["time"], "state.clock.time");
    state.clock_step = step_count(clock["step"], "state.clock.step");
    if (*state.clock_step > state.step)
      reader.fail("state.clock.step", "must not be later than state.step (" + std::to_string(state.step) + "), got " +
                                          describe(clock["step"]));
  }
  if (object.contains("start_energy")) state.start_energy = reader.finite(object["start_energy"], "state.start_energy");
  if (object.contains("work")) {
    const Json& work = reader.object(object["work"], "state.work");
    reader.check_keys(work, "state.work", {"mouse", "damping", "contacts"});
    if (work.contains("mouse")) state.work.mouse = reader.finite(work["mouse"], "state.work.mouse");
    if (work.contains("damping")) state.work.damping = reader.finite(work["damping"], "state.work.damping");
    if (work.contains("contacts")) state.work.contacts = reader.finite(work["contacts"], "state.work.contacts");
  }
  if (object.contains("newton_lost")) {
    const double lost = reader.finite(object["newton_lost"], "state.newton_lost");
    if (lost < 0.0 || lost > 1e9 || lost != std::floor(lost))
      reader.fail("state.newton_lost", "must be a whole number of substeps from 0 to 1e9, got " +
                                           describe(object["newton_lost"]));
    state.newton_lost = static_cast<int>(lost);
  }
  if (object.contains("row_force")) {
    const Json& forces = reader.array(object["row_force"], "state.row_force");
    if (forces.size() != rows)
      reader.fail("state.row_force", "must list one force per constraint row (" + std::to_string(rows) +
                                         "), got " + describe(forces));
    for (std::size_t r = 0; r < forces.size(); ++r)
      state.row_force.push_back(reader.finite(forces[r], join_index("state.row_force", r)));
  }
  if (object.contains("contacts")) {
    // [particle, other, obstacle, face, lambda, lambda_t x, y, z]: indices are checked by the builder.
    const Json& list = reader.array(object["contacts"], "state.contacts");
    if (list.size() > 10'000'000) reader.fail("state.contacts", "lists too many contacts");
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string at = join_index("state.contacts", k);
      const Json& item = reader.array(list[k], at);
      if (item.size() != 8)
        reader.fail(at, "must be [particle, other, obstacle, face, lambda, tx, ty, tz], got " + describe(item));
      Contact c;
      c.particle = reader.integer(item[0], join_index(at, 0), "a particle index");
      c.other = reader.integer(item[1], join_index(at, 1), "a particle index or -1");
      c.obstacle = reader.integer(item[2], join_index(at, 2), "an obstacle index or -1");
      c.face = reader.integer(item[3], join_index(at, 3), "a face index");
      c.lambda = reader.finite(item[4], join_index(at, 4));
      for (int i = 0; i < 3; ++i) c.lambda_t[i] = reader.finite(item[5 + i], join_index(at, 5 + i));
      state.contacts.push_back(c);
    }
  }
  return state;
}

// The scene limits, checked before anything is allocated: generators are sized from their parameters first.
struct SizeBudget {
  const SceneLimits& limits;
  mutable std::size_t counted = 0, rows = 0;  // rows of scene.constraints[0, counted): kept linear

  [[noreturn]] static void over(const JsonReader& reader, const std::string& path, const char* what, std::size_t count,
                                std::size_t limit) {
    reader.fail(path, "the scene would have " + std::to_string(count) + " " + what + ", more than the limit of " +
                          std::to_string(limit) + " (--allow-large of lagrange-lab run and shot lifts the limits)");
  }
  // Would adding `particles` and `rows` to `scene` stay within the limits?
  void check(const JsonReader& reader, const std::string& path, const Scene& scene, std::size_t particles,
             std::size_t rows) const {
    for (; counted < scene.constraints.size(); ++counted) rows += static_cast<std::size_t>(rows_of(scene.constraints[counted], reader.dimension()));
    const std::size_t have_rows = rows;
    if (particles > limits.max_particles || scene.particles.size() + particles > limits.max_particles)
      over(reader, path, "particles", scene.particles.size() + particles, limits.max_particles);
    if (rows > limits.max_rows || have_rows + rows > limits.max_rows)
      over(reader, path, "constraint rows", have_rows + rows, limits.max_rows);
  }
  // Rows and the coupled system's size Σ (rows on a particle)² of the finished scene, and the rows on any one
  // particle that can move. A rigid constraint that repeats an earlier one exactly (the same type, particles and
  // values: a particle held by a thousand identical pins) is one equation: the solvers keep its repeats out of their
  // system (its multiplier is 0), so only its first copy counts toward the coupling and the rows on a particle.
  void check_coupling(const JsonReader& reader, const Scene& scene) const {
    std::vector<std::size_t> degree(scene.particles.size(), 0), movable(scene.particles.size(), 0);
    std::size_t rows = 0;
    const std::vector<bool> repeat = rigid_repeats(scene.constraints);
    for (std::size_t k = 0; k < scene.constraints.size(); ++k) {
      const ConstraintDef& c = scene.constraints[k];
      const std::size_t r = static_cast<std::size_t>(rows_of(c, reader.dimension()));
      rows += r;
      if (repeat[k]) continue;
      for (int p : c.particles) {
        degree[p] += r;
        if (!scene.particles[p].fixed) movable[p] += r;
      }
    }
    if (rows > limits.max_rows) over(reader, "constraints", "constraint rows", rows, limits.max_rows);
    std::size_t coupling = 0;
    for (std::size_t d : degree) coupling += d * d;
    if (coupling > limits.max_coupling)
      reader.fail("constraints", "too many constraints share particles: their coupled system would hold " +
                                     std::to_string(coupling) + " row pairs, more than the limit of " +
                                     std::to_string(limits.max_coupling) +
                                     " (--allow-large of lagrange-lab run and shot lifts the limits)");
    for (std::size_t p = 0; p < movable.size(); ++p)
      if (movable[p] > limits.max_particle_rows)
        reader.fail("constraints", "particle " + std::to_string(p) + " is held by " + std::to_string(movable[p]) +
                                       " constraint rows (not counting exact repeats of a rigid constraint), more "
                                       "than the limit of " + std::to_string(limits.max_particle_rows) +
                                       " (--allow-large of lagrange-lab run and shot lifts the limits)");
  }

  // Which constraints repeat an earlier rigid one exactly: sorted by particles, type and values (a stable sort, so
  // equal ones stay in file order), each equal to the one before it is a repeat. O(n log n): 10 000 distinct pins
  // on one particle compared pairwise took seconds.
  // The definitions are compared in place, values key by key and coordinate by coordinate (copying them into sortable
  // keys cost a 100 000-link chain a sixth of its start-up).
  static std::vector<bool> rigid_repeats(const std::vector<ConstraintDef>& constraints) {
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < constraints.size(); ++k)
      if (constraints[k].compliance == 0.0) order.push_back(k);
    // <0, 0, >0 as a is before, equal to or after b
    const auto compare = [&](std::size_t a, std::size_t b) -> int {
      const ConstraintDef &x = constraints[a], &y = constraints[b];
      if (x.particles != y.particles) return x.particles < y.particles ? -1 : 1;
      if (const int c = x.type.compare(y.type)) return c;
      auto i = x.values.begin(), j = y.values.begin();
      for (; i != x.values.end() && j != y.values.end(); ++i, ++j) {
        if (const int c = i->first.compare(j->first)) return c;
        for (int d = 0; d < 3; ++d)
          if (i->second[d] != j->second[d]) return i->second[d] < j->second[d] ? -1 : 1;
      }
      return (i != x.values.end()) - (j != y.values.end());
    };
    // First by the first two particles as one integer (most definitions differ there; the sort's comparisons
    // otherwise went through memcmp of the particle lists), then by everything.
    std::vector<std::uint64_t> head(constraints.size(), 0);
    for (std::size_t k : order) {
      const auto& p = constraints[k].particles;
      const auto at = [&](std::size_t i) { return i < p.size() ? static_cast<std::uint32_t>(p[i]) : 0u; };
      head[k] = (std::uint64_t{at(0)} << 32) | at(1);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return head[a] != head[b] ? head[a] < head[b] : compare(a, b) < 0;
    });
    std::vector<bool> repeat(constraints.size(), false);
    for (std::size_t i = 1; i < order.size(); ++i)
      if (compare(order[i - 1], order[i]) == 0) repeat[order[i]] = true;
    return repeat;
  }
};

// A chain generator's keys into a ChainDef, its size checked against the budget before anything is appended.
void append_chain_from(const JsonReader& reader, const Json& object, const std::string& path, Scene& scene,
                       const SizeBudget& budget) {
  reader.check_keys(object, path, {"type", "links", "link_length", "particle_mass", "anchor", "direction",
                                   "fixed_anchor", "anchor_particle"});
  ChainDef def;
  reader.optional(object, path, "links", def.links);
  reader.optional(object, path, "link_length", def.link_length);
  reader.optional(object, path, "particle_mass", def.particle_mass);
  reader.optional(object, path, "anchor", def.anchor);
  reader.optional(object, path, "direction", def.direction);
  reader.optional(object, path, "fixed_anchor", def.fixed_anchor);
  if (object.contains("anchor_particle")) {
    const std::string at = join_key(path, "anchor_particle");
    for (const char* exclusive : {"anchor", "fixed_anchor"})
      if (object.contains(exclusive))
        reader.fail(join_key(path, exclusive), "cannot be combined with \"anchor_particle\" (the chain then starts "
                                               "at that particle)");
    def.anchor_particle = reader.integer(object["anchor_particle"], at, "a particle index");
    if (def.anchor_particle < 0)
      reader.fail(at, "must be a particle index (0 or more), got " + describe(object["anchor_particle"]));
  }
  const std::size_t links = def.links > 0 ? static_cast<std::size_t>(def.links) : 0;
  const bool own_anchor = def.anchor_particle < 0;
  budget.check(reader, path, scene, links + (own_anchor ? 1 : 0),
               links + (own_anchor && !def.fixed_anchor ? static_cast<std::size_t>(reader.dimension()) : 0));
  append_chain(scene, def);
}

// A cloth generator's keys into a ClothDef, its size checked against the budget before anything is appended.
void append_cloth_from(const JsonReader& reader, const Json& object, const std::string& path, Scene& scene,
                       const SizeBudget& budget) {
  reader.check_keys(object, path, {"type", "nx", "ny", "spacing", "particle_mass", "origin", "u", "v", "shear",
                                   "triangulate", "shear_compliance", "bend", "bend_compliance", "pin_two_corners"});
  ClothDef def;
  reader.optional(object, path, "nx", def.nx);
  reader.optional(object, path, "ny", def.ny);
  reader.optional(object, path, "spacing", def.spacing);
  reader.optional(object, path, "particle_mass", def.particle_mass);
  reader.optional(object, path, "origin", def.origin);
  reader.optional(object, path, "u", def.u);
  if (!object.contains("v") && reader.dimension() == 2)
    reader.fail(path, "a cloth in a 2D scene needs \"v\" in the xy plane (the default, [0, 0, 1], leaves it)");
  reader.optional(object, path, "v", def.v);
  reader.optional(object, path, "shear", def.shear);
  reader.optional(object, path, "triangulate", def.triangulate);
  reader.optional(object, path, "shear_compliance", def.shear_compliance);
  reader.optional(object, path, "bend", def.bend);
  reader.optional(object, path, "bend_compliance", def.bend_compliance);
  reader.optional(object, path, "pin_two_corners", def.pin_two_corners);
  const std::size_t nx = def.nx > 0 ? static_cast<std::size_t>(def.nx) : 0;
  const std::size_t ny = def.ny > 0 ? static_cast<std::size_t>(def.ny) : 0;
  const std::size_t rods =
      nx && ny ? (nx - 1) * ny + nx * (ny - 1) + (def.shear ? 2 * (nx - 1) * (ny - 1) : 0) +
                     (def.triangulate ? (nx - 1) * (ny - 1) : 0) +
                     (def.bend ? (nx > 2 ? (nx - 2) * ny : 0) + (ny > 2 ? nx * (ny - 2) : 0) : 0)
               : 0;
  budget.check(reader, path, scene, nx * ny, rods);
  append_cloth(scene, def);
}

// Expands one generator into `scene` with the builders. Ranges are checked there (one place); their messages
// read "FIELD: PROBLEM" with FIELD the key used here, so only the path needs adding.
void run_generator(const JsonReader& reader, const Json& value, const std::string& path, Scene& scene,
                   const SizeBudget& budget) {
  const Json& object = reader.object(value, path);
  const std::string type_path = join_key(path, "type");
  const std::string type = reader.string(reader.required(object, path, "type", "\"chain\" or \"cloth\""), type_path);
  const std::size_t before = scene.particles.size();
  try {
    if (type == "chain")
      append_chain_from(reader, object, path, scene, budget);
    else if (type == "cloth")
      append_cloth_from(reader, object, path, scene, budget);
    else
      reader.fail(type_path, "unknown generator type " + in_quotes(type) + suggestion(type, {"chain", "cloth"}));
  } catch (const Error& error) {
    const std::string message = error.what();
    const std::size_t colon = message.find(": ");
    if (colon == std::string::npos) reader.fail(path, message);
    reader.fail(join_key(path, message.substr(0, colon)), message.substr(colon + 2));
  }
  // Generated particles must obey the same rules as listed ones (z = 0 in 2D, ...).
  for (std::size_t i = before; i < scene.particles.size(); ++i)
    if (auto problem = particle_problem(scene.particles[i], reader.dimension()))
      reader.fail(path, "generated particle " + std::to_string(i) + ": " + problem->field + ": " + problem->text);
}

// "contacts": {"restitution": e, "friction": μ, "particles": true}.
void read_contacts(const JsonReader& reader, const Json& root, ContactSettings& contacts) {
  if (!root.contains("contacts")) return;
  const Json& object = reader.object(root["contacts"], "contacts");
  reader.check_keys(object, "contacts", {"restitution", "friction", "particles"});
  contacts.given = true;
  reader.optional(object, "contacts", "restitution", contacts.restitution);
  reader.optional(object, "contacts", "friction", contacts.friction);
  reader.optional(object, "contacts", "particles", contacts.particles);
  std::string field;
  if (std::string problem = contact_settings_problem(contacts, field); !problem.empty())
    reader.fail(join_key("contacts", field), problem);
}

// "obstacles": [{"type": "plane" | "box" | "circle" | "sphere", ...}, ...].
void read_obstacles(const JsonReader& reader, const Json& root, ContactSettings& contacts) {
  if (!root.contains("obstacles")) return;
  const Json& list = reader.array(root["obstacles"], "obstacles");
  const int dimension = reader.dimension();
  if (list.size() > 10'000)
    reader.fail("obstacles", "lists " + std::to_string(list.size()) + " obstacles, more than the limit of 10000");
  for (std::size_t k = 0; k < list.size(); ++k) {
    const std::string path = join_index("obstacles", k);
    const Json& object = reader.object(list[k], path);
    const std::string round = dimension == 2 ? "circle" : "sphere";
    const std::vector<std::string> types{"plane", "box", round};
    const std::string type =
        reader.string(reader.required(object, path, "type", dimension == 2 ? "\"plane\", \"box\" or \"circle\""
                                                                           : "\"plane\", \"box\" or \"sphere\""),
                      join_key(path, "type"));
    Obstacle o;
    std::vector<std::string> keys{"type", "restitution", "friction"};
    if (type == "plane") {
      o.shape = ObstacleShape::Plane;
      keys.insert(keys.end(), {"point", "normal"});
    } else if (type == "box") {
      o.shape = ObstacleShape::Box;
      keys.insert(keys.end(), {"min", "max"});
    } else if (type == round) {
      o.shape = ObstacleShape::Sphere;
      keys.insert(keys.end(), {"center", "radius"});
    } else if (type == "circle" || type == "sphere") {
      reader.fail(join_key(path, "type"), in_quotes(type) + " is for a " + (type == "circle" ? "2D" : "3D") +
                                              " scene; this one is " + std::to_string(dimension) + "D: use " +
                                              in_quotes(round));
    } else {
      reader.fail(join_key(path, "type"), "unknown obstacle type " + in_quotes(type) + suggestion(type, types));
    }
    reader.check_keys(object, path, keys);
    const auto vector = [&](const char* key, Vec3& out) {
      out = reader.vec(reader.required(object, path, key, "[x, y, z]"), join_key(path, key));
    };
    switch (o.shape) {
      case ObstacleShape::Plane:
        vector("point", o.point);
        vector("normal", o.normal);
        break;
      case ObstacleShape::Box:
        vector("min", o.min);
        vector("max", o.max);
        break;
      case ObstacleShape::Sphere:
        vector("center", o.center);
        o.radius = reader.number(reader.required(object, path, "radius", "a number (m)"), join_key(path, "radius"));
        break;
    }
    if (object.contains("restitution")) o.restitution = reader.number(object["restitution"], join_key(path, "restitution"));
    if (object.contains("friction")) o.friction = reader.number(object["friction"], join_key(path, "friction"));
    std::string field;
    if (std::string problem = obstacle_problem(o, dimension, field); !problem.empty())
      reader.fail(field.empty() ? path : join_key(path, field), problem);
    contacts.obstacles.push_back(o);
  }
}

std::vector<std::string> top_level_keys() {
  std::vector<std::string> keys{"name", "description", "dimension", "settings", "particles", "constraints",
                                "generators", "contacts", "obstacles", "state"};
  for (const char* key : kShorthandSettings) keys.emplace_back(key);
  return keys;
}

void check_top_level_keys(const JsonReader& reader, const Json& root) {
  const std::vector<std::string> allowed = top_level_keys();
  for (const auto& [key, value] : root.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    if (!get_setting(Settings{}, key).empty())
      reader.fail(join_key("", key), "this setting goes in the \"settings\" object (only dt, substeps, solver and "
                                     "gravity may be given at the top level)");
    reader.fail(join_key("", key), "unknown key" + suggestion(key, allowed));
  }
}

// The listed particles, then the generators' particles and constraints after them (in `generated`).
void read_particles(const JsonReader& reader, const Json& root, const SceneLimits& limits, Scene& scene,
                    Scene& generated) {
  if (root.contains("particles")) {
    const Json& list = reader.array(root["particles"], "particles");
    if (list.size() > limits.max_particles)
      SizeBudget::over(reader, "particles", "particles", list.size(), limits.max_particles);
    for (std::size_t i = 0; i < list.size(); ++i)
      scene.particles.push_back(read_particle(reader, list[i], join_index("particles", i)));
  }
  generated.particles = scene.particles;
  const SizeBudget budget{limits};
  if (root.contains("generators")) {
    const Json& list = reader.array(root["generators"], "generators");
    for (std::size_t i = 0; i < list.size(); ++i)
      run_generator(reader, list[i], join_index("generators", i), generated, budget);
  }
  if (generated.particles.empty()) {
    if (root.contains("particles"))
      reader.fail("particles", "is empty; a scene needs at least one particle (or a generator)");
    reader.fail("", "missing required key \"particles\" (a scene needs at least one particle or a generator)");
  }
  scene.particles = std::move(generated.particles);
}

// The listed constraints, each checked against the particles as it is read, then the generated ones.
void read_constraints(const JsonReader& reader, const Json& root, const SceneLimits& limits, Scene& scene,
                      Scene& generated) {
  if (root.contains("constraints")) {
    const Json& list = reader.array(root["constraints"], "constraints");
    if (list.size() > limits.max_rows)
      SizeBudget::over(reader, "constraints", "constraint rows", list.size(), limits.max_rows);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = join_index("constraints", i);
      ConstraintDef c = read_constraint(reader, list[i], path);
      fail_on(reader, path, constraint_problem(c, scene.particles, scene.dimension));
      scene.constraints.push_back(std::move(c));
    }
  }
  scene.constraints.insert(scene.constraints.end(), std::make_move_iterator(generated.constraints.begin()),
                           std::make_move_iterator(generated.constraints.end()));
  generated.constraints.clear();
  SizeBudget{limits}.check_coupling(reader, scene);
}

}  // namespace

Scene parse_scene(std::string_view json_text, const std::string& source, const SceneLimits& limits) {
  const std::string file = source.empty() ? "scene" : source;
  const Json root = json_detail::parse_document(json_text, file);
  JsonReader reader(file, 2);
  reader.object(root, "");
  check_top_level_keys(reader, root);

  Scene scene;
  scene.source = source;
  scene.name = root.contains("name") ? reader.string(root["name"], "name")
                                     : std::filesystem::path(source).stem().string();
  if (scene.name.empty()) scene.name = "Untitled scene";
  reader.optional(root, "", "description", scene.description);
  if (root.contains("dimension")) {
    scene.dimension = reader.integer(root["dimension"], "dimension");
    if (scene.dimension != 2 && scene.dimension != 3)
      reader.fail("dimension", "must be 2 or 3, got " + describe(root["dimension"]));
  }
  reader.set_dimension(scene.dimension);
  scene.settings = read_settings(reader, root);

  Scene generated;
  read_particles(reader, root, limits, scene, generated);
  read_constraints(reader, root, limits, scene, generated);
  read_contacts(reader, root, scene.contacts);
  read_obstacles(reader, root, scene.contacts);
  if (root.contains("state")) {
    std::size_t rows = 0;
    for (const ConstraintDef& c : scene.constraints) rows += static_cast<std::size_t>(rows_of(c, scene.dimension));
    scene.state = read_state(reader, root["state"], rows);
  }
  return scene;
}

SceneLimits SceneLimits::unlimited() {
  const std::size_t all = static_cast<std::size_t>(-1);
  return SceneLimits{all, all, all, all, all};
}

Scene load_scene_file(const std::filesystem::path& path, const SceneLimits& limits) {
  return parse_scene(json_detail::read_file(path, limits.max_file_bytes), path.string(), limits);
}

// Scenes built in code from pieces in a scene file's words (the Python package's Scene): each piece read, checked
// and expanded by the reader's own functions above, so it meets the same keys, ranges and messages as in a file.
namespace {

template <class Read>
int append_piece(Scene& scene, std::string_view json_text, const std::string& path, const SceneLimits& limits,
                 Read read) {
  const std::string file = scene.source.empty() ? "scene" : scene.source;
  const Json value = json_detail::parse_document(json_text, file + ": " + path);
  JsonReader reader(file, scene.dimension);
  return read(reader, value, SizeBudget{limits});
}

}  // namespace

int append_particle_json(Scene& scene, std::string_view json_text, const std::string& path,
                         const SceneLimits& limits) {
  return append_piece(scene, json_text, path, limits, [&](const JsonReader& reader, const Json& value,
                                                          const SizeBudget& budget) {
    budget.check(reader, path, scene, 1, 0);
    scene.particles.push_back(read_particle(reader, value, path));
    return static_cast<int>(scene.particles.size()) - 1;
  });
}

int append_constraint_json(Scene& scene, std::string_view json_text, const std::string& path,
                           const SceneLimits& limits) {
  return append_piece(scene, json_text, path, limits, [&](const JsonReader& reader, const Json& value,
                                                          const SizeBudget& budget) {
    ConstraintDef c = read_constraint(reader, value, path);
    fail_on(reader, path, constraint_problem(c, scene.particles, scene.dimension));
    budget.check(reader, path, scene, 0, static_cast<std::size_t>(rows_of(c, scene.dimension)));
    scene.constraints.push_back(std::move(c));
    return static_cast<int>(scene.constraints.size()) - 1;
  });
}

int append_generator_json(Scene& scene, std::string_view json_text, const std::string& path,
                          const SceneLimits& limits) {
  return append_piece(scene, json_text, path, limits, [&](const JsonReader& reader, const Json& value,
                                                          const SizeBudget& budget) {
    const int first = static_cast<int>(scene.particles.size());
    Scene grown = scene;  // a generator that fails half-way leaves the scene as it was
    run_generator(reader, value, path, grown, budget);
    budget.check_coupling(reader, grown);
    scene = std::move(grown);
    return first;
  });
}

}  // namespace lagrange
