// The scene reader: JSON text → Scene. The format, every key and every message are documented in docs/scenes.md;
// keep the two in step. The builder (Scene → World) is scene_builder.cpp, the writer (World → JSON) scene_writer.cpp.
//
// Every problem is thrown once, as SceneError("FILE: JSON.PATH: PROBLEM"). Parsing is all-or-nothing: a Scene is
// only returned when the whole file is valid. Checks that also apply to scenes built in code (positive mass, index
// range, a rod on two fixed particles, ...) live in scene_checks.h and the kind table (constraint_kinds.h) and run
// both here and in make_world.
#include "lagrange/scene.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lagrange/builders.h"
#include "lagrange/constraint_kinds.h"
#include "scene_checks.h"
#include "lagrange/text.h"

namespace lagrange {
namespace {

using Json = nlohmann::json;

using namespace scene_detail;

// Larger numbers are typos (or would overflow once squared by the solvers).
constexpr double kMaxMagnitude = 1e9;

// Scenes are a few levels deep; a document nested deeper is not a scene (and must not cost time to report).
constexpr std::size_t kMaxDepth = 64;
// Longer words are not typos of a key: the suggester (quadratic in the length) skips them.
constexpr std::size_t kMaxSuggestLength = 64;

// The top-level keys that are shorthands for settings of the same name.
constexpr const char* kShorthandSettings[] = {"dt", "substeps", "solver", "gravity"};

// What a value is, for "got ..." in messages.
std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return value.dump();
    case Json::value_t::number_float: return format_number(value.get<double>());
    case Json::value_t::string: {
      std::string text = value.get<std::string>();
      if (text.size() > 40) text = text.substr(0, 37) + "...";
      return "the string " + in_quotes(text);
    }
    case Json::value_t::array:
      if (value.empty()) return "an empty array";
      return "an array of " + std::to_string(value.size()) + (value.size() == 1 ? " element" : " elements");
    case Json::value_t::object: return "an object";
    default: return "a binary value";
  }
}

// Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-insensitive.
int edit_distance(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = static_cast<int>(i);
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// " (did you mean "mass"?)" for a near miss, otherwise " (expected one of: a, b, c)".
std::string suggestion(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  int best_distance = word.size() >= 4 ? 2 : 1;
  for (const std::string& candidate : candidates) {
    if (word.size() > kMaxSuggestLength) break;
    const int distance = edit_distance(word, candidate);
    if (distance <= best_distance && (!best || distance < best_distance)) {
      best = &candidate;
      best_distance = distance;
    }
  }
  if (best) return " (did you mean " + in_quotes(*best) + "?)";
  std::string list;
  for (const std::string& candidate : candidates) list += (list.empty() ? "" : ", ") + candidate;
  return " (expected one of: " + list + ")";
}

// Builds the document like json::parse does, and also catches what json::parse lets through or hides: a key
// given twice in one object (json::parse silently keeps the last) and the byte offset of every error (the number
// overflow error, "1e400", has none in its message).
class DocumentBuilder final : public Json::json_sax_t {
 public:
  Json root;
  std::string duplicate_path;     // first key given twice, as a JSON path
  bool too_deep = false;          // nested more than kMaxDepth levels
  std::size_t error_byte = 0;     // 1-based offset of the last character read when the error happened
  std::string error_message;

  bool null() override { return put(nullptr); }
  bool boolean(bool value) override { return put(value); }
  bool number_integer(number_integer_t value) override { return put(value); }
  bool number_unsigned(number_unsigned_t value) override { return put(value); }
  bool number_float(number_float_t value, const string_t&) override { return put(value); }
  bool string(string_t& value) override { return put(std::move(value)); }
  bool binary(binary_t& value) override { return put(Json::binary(std::move(value))); }
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& key) override {
    Frame& frame = stack_.back();
    frame.key = key;
    if (frame.container->contains(key) && duplicate_path.empty()) duplicate_path = path();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const Json::exception& error) override {
    error_byte = position;
    error_message = error.what();
    return false;
  }

 private:
  struct Frame {
    Json* container;
    std::string key;  // objects: the key being read
  };

  bool put(Json value) {
    insert(std::move(value));
    return true;
  }
  bool open(Json container) {
    if (stack_.size() >= kMaxDepth) {
      too_deep = true;
      return false;
    }
    stack_.push_back({insert(std::move(container)), {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }
  // Open containers are always the last element of their parent, so the pointers in stack_ stay valid.
  Json* insert(Json value) {
    if (stack_.empty()) {
      root = std::move(value);
      return &root;
    }
    Json& parent = *stack_.back().container;
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    Json& slot = parent[stack_.back().key];
    slot = std::move(value);
    return &slot;
  }
  std::string path() const {  // appended in place: linear in the depth
    std::string out;
    for (const Frame& frame : stack_) {
      if (frame.container->is_array()) {
        out += '[';
        out += std::to_string(frame.container->size() - 1);
        out += ']';
      } else {
        if (!out.empty()) out += '.';
        out += printable(frame.key);
      }
    }
    return out;
  }

  std::vector<Frame> stack_;
};

// Reads typed values out of the document; every failure names the file and the JSON path.
class Reader {
 public:
  Reader(std::string file, int dimension) : file_(std::move(file)), dimension_(dimension) {}

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    scene_detail::fail(file_, path, problem);
  }
  void fail_on(const std::string& path, const std::optional<FieldProblem>& problem) const {
    scene_detail::fail_on(file_, path, problem);
  }
  void set_dimension(int dimension) { dimension_ = dimension; }
  int dimension() const { return dimension_; }

  const Json& object(const Json& value, const std::string& path) const {
    if (!value.is_object()) fail(path, "must be an object {...}, got " + describe(value));
    return value;
  }
  const Json& array(const Json& value, const std::string& path) const {
    if (!value.is_array()) fail(path, "must be an array [...], got " + describe(value));
    return value;
  }
  void check_keys(const Json& object, const std::string& path, const std::vector<std::string>& allowed) const {
    for (const auto& [key, value] : object.items())
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(join_key(path, key), "unknown key" + suggestion(key, allowed));
  }
  const Json& required(const Json& object, const std::string& path, const char* key, const char* hint) const {
    if (!object.contains(key))
      fail(path, "missing required key " + in_quotes(key) + (*hint ? std::string(" (") + hint + ")" : ""));
    return object[key];
  }

  double number(const Json& value, const std::string& path) const {
    if (!value.is_number()) fail(path, "must be a number, got " + describe(value));
    const double x = value.get<double>();
    if (!std::isfinite(x) || std::abs(x) > kMaxMagnitude)
      fail(path, "must be a number of magnitude at most 1e9, got " + describe(value));
    return x;
  }
  // An integral float (2.0) counts as an integer.
  int integer(const Json& value, const std::string& path, const char* what = "an integer") const {
    const double x = value.is_number() ? value.get<double>() : 0.5;
    if (!std::isfinite(x) || x != std::floor(x))
      fail(path, std::string("must be ") + what + ", got " + describe(value));
    if (std::abs(x) > kMaxMagnitude)
      fail(path, std::string("must be ") + what + " of magnitude at most 1e9, got " + describe(value));
    return static_cast<int>(x);
  }
  bool boolean(const Json& value, const std::string& path) const {
    if (!value.is_boolean()) fail(path, "must be true or false, got " + describe(value));
    return value.get<bool>();
  }
  std::string string(const Json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, "must be a string, got " + describe(value));
    return value.get<std::string>();
  }
  // [x, y, z]; [x, y] is also accepted in a 2D scene, where z must be 0.
  Vec3 vec(const Json& value, const std::string& path) const {
    const char* shape = dimension_ == 2 ? "must be an array of 2 numbers [x, y] (or 3 with z = 0)"
                                        : "must be an array of 3 numbers [x, y, z]";
    if (!value.is_array()) fail(path, std::string(shape) + ", got " + describe(value));
    if (value.size() != 3 && !(dimension_ == 2 && value.size() == 2))
      fail(path, std::string(shape) + ", got " + describe(value));
    Vec3 v{0.0};
    for (std::size_t k = 0; k < value.size(); ++k) v[static_cast<int>(k)] = number(value[k], join_index(path, k));
    if (auto problem = vector_problem(path, v, dimension_)) fail(problem->field, problem->text);
    return v;
  }
  // [r, g, b] in 0..1 or "#rrggbb".
  Colour colour(const Json& value, const std::string& path) const {
    const char* shape = "must be [r, g, b] with each in 0..1, or \"#rrggbb\"";
    if (value.is_string()) {
      const std::string text = value.get<std::string>();
      unsigned rgb = 0;
      const auto hex_digit = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
      const bool hex = text.size() == 7 && text[0] == '#' && std::all_of(text.begin() + 1, text.end(), hex_digit);
      if (!hex) fail(path, std::string(shape) + ", got " + describe(value));
      std::from_chars(text.data() + 1, text.data() + 7, rgb, 16);
      return Colour{((rgb >> 16) & 0xff) / 255.0f, ((rgb >> 8) & 0xff) / 255.0f, (rgb & 0xff) / 255.0f};
    }
    if (!value.is_array() || value.size() != 3) fail(path, std::string(shape) + ", got " + describe(value));
    float c[3];
    for (std::size_t k = 0; k < 3; ++k) {
      const double x = number(value[k], join_index(path, k));
      if (x < 0.0 || x > 1.0) fail(join_index(path, k), "must be between 0 and 1, got " + describe(value[k]));
      c[k] = static_cast<float>(x);
    }
    return Colour{c[0], c[1], c[2]};
  }

 private:
  std::string file_;
  int dimension_;
};

// Applies one setting through set_setting(), the single place that checks settings. The JSON type expected is
// read off the default value's text: "x,y,z" is a vector, a number is a number, anything else a string.
void apply_setting(const Reader& reader, Settings& settings, const std::string& key, const Json& value,
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
    if (!value.is_number()) reader.fail(path, "must be a number, got " + describe(value));
    if (value.is_number_integer())
      text = value.dump();
    else if (const double x = value.get<double>(); std::isfinite(x))
      text = format_number(x);
    else
      reader.fail(path, "must be a finite number, got " + describe(value));
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

Settings read_settings(const Reader& reader, const Json& root) {
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

ParticleDef read_particle(const Reader& reader, const Json& value, const std::string& path) {
  const Json& object = reader.object(value, path);
  reader.check_keys(object, path, {"position", "velocity", "mass", "fixed", "radius", "colour"});
  ParticleDef p;
  p.position = reader.vec(reader.required(object, path, "position", "[x, y, z]"), join_key(path, "position"));
  if (object.contains("velocity")) p.velocity = reader.vec(object["velocity"], join_key(path, "velocity"));
  if (object.contains("fixed")) p.fixed = reader.boolean(object["fixed"], join_key(path, "fixed"));
  if (object.contains("mass")) {
    if (p.fixed)
      reader.fail(join_key(path, "mass"), "a fixed particle has no mass (nothing can move it); remove \"mass\" or "
                                          "\"fixed\"");
    p.mass = reader.number(object["mass"], join_key(path, "mass"));
  }
  if (object.contains("radius")) p.radius = reader.number(object["radius"], join_key(path, "radius"));
  if (object.contains("colour")) {
    p.colour = reader.colour(object["colour"], join_key(path, "colour"));
    p.has_colour = true;
  }
  reader.fail_on(path, particle_problem(p, reader.dimension()));
  return p;
}

// Any kind of the table: "type", the particle(s) ("particle": P for one, "particles": [A, B, ...] for more), the
// kind's own keys, and "compliance" and "damping" for every kind.
ConstraintDef read_constraint(const Reader& reader, const Json& value, const std::string& path) {
  const Json& object = reader.object(value, path);
  const std::string type_path = join_key(path, "type");
  const std::vector<std::string> names = kind_names();
  std::string hint;
  for (std::size_t k = 0; k < names.size(); ++k)
    hint += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + in_quotes(names[k]);
  const std::string type = reader.string(reader.required(object, path, "type", hint.c_str()), type_path);
  const ConstraintKind* kind = find_kind(type);
  if (!kind) reader.fail(type_path, "unknown constraint type " + in_quotes(type) + suggestion(type, names));
  const bool one = kind->arity == 1;
  const char* ids_key = one ? "particle" : "particles";
  std::vector<std::string> allowed{"type", ids_key, "compliance", "damping"};
  for (const KindField& field : kind->fields) allowed.emplace_back(field.key);
  reader.check_keys(object, path, allowed);

  ConstraintDef c;
  c.type = kind->name;
  const std::string ids_path = join_key(path, ids_key);
  const char* index = "a particle index (an integer)";
  if (one) {
    c.particles.push_back(reader.integer(reader.required(object, path, ids_key, "a particle index"), ids_path, index));
  } else {
    std::string shape = "[a";
    for (int k = 1; k < kind->arity; ++k) shape += k == 1 ? ", b" : k == 2 ? ", c" : ", d";
    shape += "]";
    const Json& ids = reader.array(reader.required(object, path, ids_key, shape.c_str()), ids_path);
    if (ids.size() != static_cast<std::size_t>(kind->arity))
      reader.fail(ids_path, "must list exactly " + std::to_string(kind->arity) + " particle indices " + shape +
                                ", got " + describe(ids));
    for (std::size_t k = 0; k < ids.size(); ++k)
      c.particles.push_back(reader.integer(ids[k], join_index(ids_path, k), index));
  }
  for (const KindField& field : kind->fields) {
    if (!object.contains(field.key)) continue;
    const std::string field_path = join_key(path, field.key);
    if (field.type == FieldType::Number)
      c.set(field.key, reader.number(object[field.key], field_path));
    else
      c.set(field.key, reader.vec(object[field.key], field_path));
  }
  if (object.contains("compliance")) c.compliance = reader.number(object["compliance"], join_key(path, "compliance"));
  if (object.contains("damping")) c.damping = reader.number(object["damping"], join_key(path, "damping"));
  return c;
}

// "state": what a saved run carries beyond the particles' positions and velocities (write_scene).
SceneState read_state(const Reader& reader, const Json& value, std::size_t rows) {
  const std::string path = "state";
  const Json& object = reader.object(value, path);
  reader.check_keys(object, path, {"step", "time", "clock", "work", "start_energy", "row_force"});
  const auto finite_number = [&](const Json& v, const std::string& at) {
    if (!v.is_number() || !std::isfinite(v.get<double>())) reader.fail(at, "must be a finite number, got " + describe(v));
    return v.get<double>();
  };
  const auto step_count = [&](const Json& v, const std::string& at) {
    const double step = finite_number(v, at);
    if (step < 0.0 || step != std::floor(step) || step > 1e15)
      reader.fail(at, "must be a whole number of steps (0 or more), got " + describe(v));
    return static_cast<long>(step);
  };
  const auto time = [&](const Json& v, const std::string& at) {
    const double t = finite_number(v, at);
    if (t < 0.0) reader.fail(at, "must be a time of 0 s or more, got " + describe(v));
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
  if (object.contains("start_energy")) state.start_energy = finite_number(object["start_energy"], "state.start_energy");
  if (object.contains("work")) {
    const Json& work = reader.object(object["work"], "state.work");
    reader.check_keys(work, "state.work", {"mouse", "damping"});
    if (work.contains("mouse")) state.work.mouse = finite_number(work["mouse"], "state.work.mouse");
    if (work.contains("damping")) state.work.damping = finite_number(work["damping"], "state.work.damping");
  }
  if (object.contains("row_force")) {
    const Json& forces = reader.array(object["row_force"], "state.row_force");
    if (forces.size() != rows)
      reader.fail("state.row_force", "must list one force per constraint row (" + std::to_string(rows) +
                                         "), got " + describe(forces));
    for (std::size_t r = 0; r < forces.size(); ++r)
      state.row_force.push_back(finite_number(forces[r], join_index("state.row_force", r)));
  }
  return state;
}

// The scene limits, checked before anything is allocated: generators are sized from their parameters first.
struct SizeBudget {
  const SceneLimits& limits;
  mutable std::size_t counted = 0, rows = 0;  // rows of scene.constraints[0, counted): kept linear

  [[noreturn]] static void over(const Reader& reader, const std::string& path, const char* what, std::size_t count,
                                std::size_t limit) {
    reader.fail(path, "the scene would have " + std::to_string(count) + " " + what + ", more than the limit of " +
                          std::to_string(limit) + " (--allow-large of lagrange-lab run and shot lifts the limits)");
  }
  // Would adding `particles` and `rows` to `scene` stay within the limits?
  void check(const Reader& reader, const std::string& path, const Scene& scene, std::size_t particles,
             std::size_t rows) const {
    for (; counted < scene.constraints.size(); ++counted) rows += static_cast<std::size_t>(rows_of(scene.constraints[counted], reader.dimension()));
    const std::size_t have_rows = rows;
    if (particles > limits.max_particles || scene.particles.size() + particles > limits.max_particles)
      over(reader, path, "particles", scene.particles.size() + particles, limits.max_particles);
    if (rows > limits.max_rows || have_rows + rows > limits.max_rows)
      over(reader, path, "constraint rows", have_rows + rows, limits.max_rows);
  }
  // Rows and the coupled system's size Σ (rows on a particle)² of the finished scene.
  void check_coupling(const Reader& reader, const Scene& scene) const {
    std::vector<std::size_t> degree(scene.particles.size(), 0);
    std::size_t rows = 0;
    for (const ConstraintDef& c : scene.constraints) {
      const std::size_t r = static_cast<std::size_t>(rows_of(c, reader.dimension()));
      rows += r;
      for (int p : c.particles) degree[p] += r;
    }
    if (rows > limits.max_rows) over(reader, "constraints", "constraint rows", rows, limits.max_rows);
    std::size_t coupling = 0;
    for (std::size_t d : degree) coupling += d * d;
    if (coupling > limits.max_coupling)
      reader.fail("constraints", "too many constraints share particles: their coupled system would hold " +
                                     std::to_string(coupling) + " row pairs, more than the limit of " +
                                     std::to_string(limits.max_coupling) +
                                     " (--allow-large of lagrange-lab run and shot lifts the limits)");
  }
};

// Expands one generator into `scene` with the builders. Ranges are checked there (one place); their messages
// read "FIELD: PROBLEM" with FIELD the key used here, so only the path needs adding.
void run_generator(const Reader& reader, const Json& value, const std::string& path, Scene& scene,
                   const SizeBudget& budget) {
  const Json& object = reader.object(value, path);
  const std::string type_path = join_key(path, "type");
  const std::string type = reader.string(reader.required(object, path, "type", "\"chain\" or \"cloth\""), type_path);
  const auto has = [&](const char* key) { return object.contains(key); };
  const auto at = [&](const char* key) -> const Json& { return object[key]; };
  const auto sub = [&](const char* key) { return join_key(path, key); };
  const std::size_t before = scene.particles.size();
  try {
    if (type == "chain") {
      reader.check_keys(object, path, {"type", "links", "link_length", "particle_mass", "anchor", "direction",
                                       "fixed_anchor", "anchor_particle"});
      ChainDef def;
      if (has("links")) def.links = reader.integer(at("links"), sub("links"));
      if (has("link_length")) def.link_length = reader.number(at("link_length"), sub("link_length"));
      if (has("particle_mass")) def.particle_mass = reader.number(at("particle_mass"), sub("particle_mass"));
      if (has("anchor")) def.anchor = reader.vec(at("anchor"), sub("anchor"));
      if (has("direction")) def.direction = reader.vec(at("direction"), sub("direction"));
      if (has("fixed_anchor")) def.fixed_anchor = reader.boolean(at("fixed_anchor"), sub("fixed_anchor"));
      if (has("anchor_particle")) {
        for (const char* exclusive : {"anchor", "fixed_anchor"})
          if (has(exclusive))
            reader.fail(sub(exclusive), "cannot be combined with \"anchor_particle\" (the chain then starts at "
                                        "that particle)");
        def.anchor_particle = reader.integer(at("anchor_particle"), sub("anchor_particle"), "a particle index");
        if (def.anchor_particle < 0)
          reader.fail(sub("anchor_particle"), "must be a particle index (0 or more), got " +
                                                  describe(at("anchor_particle")));
      }
      const std::size_t links = def.links > 0 ? static_cast<std::size_t>(def.links) : 0;
      const bool own_anchor = def.anchor_particle < 0;
      budget.check(reader, path, scene, links + (own_anchor ? 1 : 0),
                   links + (own_anchor && !def.fixed_anchor ? static_cast<std::size_t>(reader.dimension()) : 0));
      append_chain(scene, def);
    } else if (type == "cloth") {
      reader.check_keys(object, path, {"type", "nx", "ny", "spacing", "particle_mass", "origin", "u", "v", "shear",
                                       "triangulate", "shear_compliance", "bend", "bend_compliance", "pin_two_corners"});
      ClothDef def;
      if (has("nx")) def.nx = reader.integer(at("nx"), sub("nx"));
      if (has("ny")) def.ny = reader.integer(at("ny"), sub("ny"));
      if (has("spacing")) def.spacing = reader.number(at("spacing"), sub("spacing"));
      if (has("particle_mass")) def.particle_mass = reader.number(at("particle_mass"), sub("particle_mass"));
      if (has("origin")) def.origin = reader.vec(at("origin"), sub("origin"));
      if (has("u")) def.u = reader.vec(at("u"), sub("u"));
      if (has("v"))
        def.v = reader.vec(at("v"), sub("v"));
      else if (reader.dimension() == 2)
        reader.fail(path, "a cloth in a 2D scene needs \"v\" in the xy plane (the default, [0, 0, 1], leaves it)");
      if (has("shear")) def.shear = reader.boolean(at("shear"), sub("shear"));
      if (has("triangulate")) def.triangulate = reader.boolean(at("triangulate"), sub("triangulate"));
      if (has("shear_compliance")) def.shear_compliance = reader.number(at("shear_compliance"), sub("shear_compliance"));
      if (has("bend")) def.bend = reader.boolean(at("bend"), sub("bend"));
      if (has("bend_compliance")) def.bend_compliance = reader.number(at("bend_compliance"), sub("bend_compliance"));
      if (has("pin_two_corners")) def.pin_two_corners = reader.boolean(at("pin_two_corners"), sub("pin_two_corners"));
      const std::size_t nx = def.nx > 0 ? static_cast<std::size_t>(def.nx) : 0;
      const std::size_t ny = def.ny > 0 ? static_cast<std::size_t>(def.ny) : 0;
      const std::size_t rods =
          nx && ny ? (nx - 1) * ny + nx * (ny - 1) + (def.shear ? 2 * (nx - 1) * (ny - 1) : 0) +
                         (def.triangulate ? (nx - 1) * (ny - 1) : 0) +
                         (def.bend ? (nx > 2 ? (nx - 2) * ny : 0) + (ny > 2 ? nx * (ny - 2) : 0) : 0)
                   : 0;
      budget.check(reader, path, scene, nx * ny, rods);
      append_cloth(scene, def);
    } else {
      reader.fail(type_path, "unknown generator type " + in_quotes(type) + suggestion(type, {"chain", "cloth"}));
    }
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

Json parse_document(std::string_view text, const std::string& file) {
  DocumentBuilder builder;
  const bool ok = Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json, true);
  const std::string name = printable(file, kEchoPathLength);
  if (builder.too_deep)
    throw SceneError(name + ": nested more than " + std::to_string(kMaxDepth) + " levels deep; not a scene file");
  if (!ok) {
    // nlohmann's message reads "[json.exception.parse_error.101] parse error at line 3, column 7: PROBLEM".
    std::string problem = builder.error_message;
    if (problem.rfind("[json.exception.", 0) == 0) problem.erase(0, problem.find("] ") + 2);
    if (problem.rfind("parse error", 0) == 0) problem.erase(0, problem.find(": ") + 2);
    const std::size_t end = std::min(builder.error_byte > 0 ? builder.error_byte - 1 : 0, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    // The message quotes what was read, which can be a whole 10 MB string with control characters in it.
    throw SceneError(name + ": invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
                     ": " + printable(problem, 2 * kEchoLength));
  }
  if (!builder.duplicate_path.empty())
    throw SceneError(name + ": " + printable(builder.duplicate_path, 4 * kEchoLength) +
                     ": key given twice in the same object");
  return std::move(builder.root);
}

std::vector<std::string> top_level_keys() {
  std::vector<std::string> keys{"name", "description", "dimension", "settings", "particles", "constraints",
                                "generators", "state"};
  for (const char* key : kShorthandSettings) keys.emplace_back(key);
  return keys;
}

}  // namespace

Scene parse_scene(std::string_view json_text, const std::string& source, const SceneLimits& limits) {
  const std::string file = source.empty() ? "scene" : source;
  const Json root = parse_document(json_text, file);
  Reader reader(file, 2);
  reader.object(root, "");

  const std::vector<std::string> allowed = top_level_keys();
  for (const auto& [key, value] : root.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    if (!get_setting(Settings{}, key).empty())
      reader.fail(join_key("", key), "this setting goes in the \"settings\" object (only dt, substeps, solver and gravity may be "
                       "given at the top level)");
    reader.fail(join_key("", key), "unknown key" + suggestion(key, allowed));
  }

  Scene scene;
  scene.source = source;
  scene.name = root.contains("name") ? reader.string(root["name"], "name")
                                     : std::filesystem::path(source).stem().string();
  if (scene.name.empty()) scene.name = "Untitled scene";
  if (root.contains("description")) scene.description = reader.string(root["description"], "description");
  if (root.contains("dimension")) {
    scene.dimension = reader.integer(root["dimension"], "dimension");
    if (scene.dimension != 2 && scene.dimension != 3)
      reader.fail("dimension", "must be 2 or 3, got " + describe(root["dimension"]));
  }
  reader.set_dimension(scene.dimension);
  scene.settings = read_settings(reader, root);

  if (root.contains("particles")) {
    const Json& list = reader.array(root["particles"], "particles");
    if (list.size() > limits.max_particles)
      SizeBudget::over(reader, "particles", "particles", list.size(), limits.max_particles);
    for (std::size_t i = 0; i < list.size(); ++i)
      scene.particles.push_back(read_particle(reader, list[i], join_index("particles", i)));
  }
  // Generated particles follow the listed ones; the listed constraints come first, then the generated ones.
  Scene generated;
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

  if (root.contains("constraints")) {
    const Json& list = reader.array(root["constraints"], "constraints");
    if (list.size() > limits.max_rows)
      SizeBudget::over(reader, "constraints", "constraint rows", list.size(), limits.max_rows);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string path = join_index("constraints", i);
      ConstraintDef c = read_constraint(reader, list[i], path);
      reader.fail_on(path, constraint_problem(c, scene.particles, scene.dimension));
      scene.constraints.push_back(c);
    }
  }
  scene.constraints.insert(scene.constraints.end(), generated.constraints.begin(), generated.constraints.end());
  budget.check_coupling(reader, scene);
  if (root.contains("state")) {
    std::size_t rows = 0;
    for (const ConstraintDef& c : scene.constraints) rows += static_cast<std::size_t>(rows_of(c, scene.dimension));
    scene.state = read_state(reader, root["state"], rows);
  }
  return scene;
}

SceneLimits SceneLimits::unlimited() {
  const std::size_t all = static_cast<std::size_t>(-1);
  return SceneLimits{all, all, all, all};
}

Scene load_scene_file(const std::filesystem::path& path, const SceneLimits& limits) {
  const std::string file = path.string();
  const std::string name = printable(file, kEchoPathLength);
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below like any non-regular file.
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    throw SceneError(name + ": cannot open file: " + (error ? std::strerror(error) : "unknown error"));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw SceneError(name + ": cannot read file: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw SceneError(name + ": is a directory, not a scene file");
  if (!S_ISREG(st.st_mode))
    throw SceneError(name + ": is not a regular file (a FIFO, device or socket); a scene must be a file");
  const auto too_big = [&](std::size_t bytes) {
    throw SceneError(name + ": is " + std::to_string(bytes) + " bytes, more than the limit of " +
                     std::to_string(limits.max_file_bytes) +
                     " for a scene file (--allow-large of lagrange-lab run and shot lifts it)");
  };
  if (static_cast<std::size_t>(st.st_size) > limits.max_file_bytes) too_big(static_cast<std::size_t>(st.st_size));
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SceneError(name + ": cannot read file: " + std::strerror(errno));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > limits.max_file_bytes) too_big(text.size());  // the file grew while being read
  }
  return parse_scene(text, file, limits);
}

}  // namespace lagrange
