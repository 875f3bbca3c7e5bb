// The JSON layer of the scene reader (json_reader.h). nlohmann parses; what is added here is what a file from
// anywhere needs before it can be trusted to describe anything: bounded reading, bounded nesting, duplicate keys
// caught, and messages that quote the file's own text only through printable() (it can hold control characters and
// be megabytes long).
#include "json_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lagrange/scene.h"
#include "lagrange/text.h"
#include "scene_checks.h"

namespace lagrange::json_detail {
namespace {

using namespace scene_detail;

// Larger numbers are typos (or would overflow once squared by the solvers).
constexpr double kMaxMagnitude = 1e9;

// Scenes are a few levels deep; a document nested deeper is not a scene (and must not cost time to report).
constexpr std::size_t kMaxDepth = 64;
// Longer words are not typos of a key: the suggester (quadratic in the length) skips them.
constexpr std::size_t kMaxSuggestLength = 64;

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

}  // namespace

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

std::string read_file(const std::filesystem::path& path, std::size_t max_bytes) {
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
                     std::to_string(max_bytes) +
                     " for a scene file (--allow-large of lagrange-lab run and shot lifts it)");
  };
  if (static_cast<std::size_t>(st.st_size) > max_bytes) too_big(static_cast<std::size_t>(st.st_size));
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
    if (text.size() > max_bytes) too_big(text.size());  // the file grew while being read
  }
  return text;
}

void JsonReader::fail(const std::string& path, const std::string& problem) const {
  scene_detail::fail(file_, path, problem);
}

const Json& JsonReader::object(const Json& value, const std::string& path) const {
  if (!value.is_object()) fail(path, "must be an object {...}, got " + describe(value));
  return value;
}

const Json& JsonReader::array(const Json& value, const std::string& path) const {
  if (!value.is_array()) fail(path, "must be an array [...], got " + describe(value));
  return value;
}

void JsonReader::check_keys(const Json& object, const std::string& path,
                            const std::vector<std::string>& allowed) const {
  for (const auto& [key, value] : object.items())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      fail(join_key(path, key), "unknown key" + suggestion(key, allowed));
}

const Json& JsonReader::required(const Json& object, const std::string& path, const char* key,
                                 const char* hint) const {
  if (!object.contains(key))
    fail(path, "missing required key " + in_quotes(key) + (*hint ? std::string(" (") + hint + ")" : ""));
  return object[key];
}

double JsonReader::number(const Json& value, const std::string& path) const {
  if (!value.is_number()) fail(path, "must be a number, got " + describe(value));
  const double x = value.get<double>();
  if (!std::isfinite(x) || std::abs(x) > kMaxMagnitude)
    fail(path, "must be a number of magnitude at most 1e9, got " + describe(value));
  return x;
}

double JsonReader::finite(const Json& value, const std::string& path) const {
  if (!value.is_number() || !std::isfinite(value.get<double>()))
    fail(path, "must be a finite number, got " + describe(value));
  return value.get<double>();
}

int JsonReader::integer(const Json& value, const std::string& path, const char* what) const {
  const double x = value.is_number() ? value.get<double>() : 0.5;  // 0.5: not an integer, whatever the type
  if (!std::isfinite(x) || x != std::floor(x)) fail(path, std::string("must be ") + what + ", got " + describe(value));
  if (std::abs(x) > kMaxMagnitude)
    fail(path, std::string("must be ") + what + " of magnitude at most 1e9, got " + describe(value));
  return static_cast<int>(x);
}

bool JsonReader::boolean(const Json& value, const std::string& path) const {
  if (!value.is_boolean()) fail(path, "must be true or false, got " + describe(value));
  return value.get<bool>();
}

std::string JsonReader::string(const Json& value, const std::string& path) const {
  if (!value.is_string()) fail(path, "must be a string, got " + describe(value));
  return value.get<std::string>();
}

Vec3 JsonReader::vec(const Json& value, const std::string& path) const {
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

void JsonReader::optional(const Json& object, const std::string& path, const char* key, double& out) const {
  if (object.contains(key)) out = number(object[key], join_key(path, key));
}
void JsonReader::optional(const Json& object, const std::string& path, const char* key, int& out) const {
  if (object.contains(key)) out = integer(object[key], join_key(path, key));
}
void JsonReader::optional(const Json& object, const std::string& path, const char* key, bool& out) const {
  if (object.contains(key)) out = boolean(object[key], join_key(path, key));
}
void JsonReader::optional(const Json& object, const std::string& path, const char* key, std::string& out) const {
  if (object.contains(key)) out = string(object[key], join_key(path, key));
}
void JsonReader::optional(const Json& object, const std::string& path, const char* key, Vec3& out) const {
  if (object.contains(key)) out = vec(object[key], join_key(path, key));
}

}  // namespace lagrange::json_detail
