// The table of measurements a class builds in the Measure strip (issue 21): one row per timed pendulum bob — its
// colour, its amplitude measured from the swing, the measured period beside the exact and the small-angle one, and
// measured / exact − 1 — as plain data with no window; how bobs are named by colour; the table as tab-separated text
// (the clipboard) and as CSV (Export CSV, through the safe writer). measure_table.cpp draws it; docs/app.md,
// "Measuring", says what each column holds.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace lagrange::app {

// --- names by colour ------------------------------------------------------------------------------------------------
// The name of a colour (sRGB components in 0..1) a class would use: one of red, orange, yellow, green, teal, blue,
// purple, pink, brown, grey, white and black, the word whose typical colours (a few per word: pure blue #0000ff, a
// mid blue and a sky blue are all "blue") lie nearest in CIELAB (ΔE*76, D65) — a space built so that equal
// distances look about equally different, so a dark orange is not called red because its red component is the
// largest. The shipped scenes' blue #4f8fd8, teal #45b3a5, green #7cba4a, ochre #e0b43a, orange #e8773a and red
// #d8453f come out as blue, teal, green, yellow, orange and red; the drawn palette's light grey as white.
std::string colour_name(const glm::vec3& colour);

// How the Measure strip names particles: `colours[k]` is particles[k]'s drawn colour, or empty when it has none.
// "red bob" when no other of `particles` has a colour of the same name, "red bob 11" (the particle's number, as
// `run --particle` takes it) when another has; "bob 11" without a colour.
std::vector<std::string> bob_names(std::span<const int> particles, std::span<const std::optional<glm::vec3>> colours);

// --- numbers as the strip shows them --------------------------------------------------------------------------------
// A fraction as a signed percentage with two significant digits (at most five decimals) and a true minus sign
// (U+2212): 1.2e-4 → "+0.012 %", −3.1e-5 → "−0.0031 %", 0.76 → "+76 %", 0 → "0 %". `ascii`: a plain '-'.
std::string signed_percent(double fraction, bool ascii = false);

// --- the table ------------------------------------------------------------------------------------------------------
struct TableRow {
  int particle = -1;                // its number in the scene it was timed in
  std::optional<glm::vec3> colour;  // the particle's drawn colour (sRGB, 0..1)
  std::string name;                 // bob_names(): "red bob", or "blue bob 3", or "bob 3"
  double amplitude = 0.0;           // radians: the swing's angle at its turning points (AmplitudeMeter)
  double period = 0.0;              // seconds, measured (PeriodMeter)
  int intervals = 0;                // whole periods the measured value averages
  double exact = 0.0;               // 4 √(L/g) K(sin(amplitude/2)), seconds
  double small_angle = 0.0;         // 2π √(L/g), seconds
  double length = 0.0, gravity = 0.0;  // L (m) and |g| (m/s²) of the swing

  double difference() const { return period / exact - 1.0; }  // measured / exact − 1
  double ratio() const { return period / small_angle; }       // T / T₀, T₀ the small-angle period
};

struct MeasurementTable {
  std::vector<TableRow> rows;  // in the order they were added
};

// The table as text with a header line, one line per row, fields separated by `separator` (',' for CSV, '\t' for
// the clipboard): bob, particle, colour (#rrggbb), amplitude (deg), measured T (s), exact T (s), small-angle T (s),
// measured/exact - 1 (%), T/T0, L (m), g (m/s^2), periods timed. ASCII only, '\n' line ends, a field quoted when
// it holds the separator or a quote.
std::string table_text(const MeasurementTable& table, char separator);

// Writes table_text(table, ',') to `path` through the safe writer (io::OutputFile: complete or not at all), creating
// its folder; never over `scene_file` (the scene that was opened; "" when none). Returns "" or why it failed.
std::string write_table_csv(const MeasurementTable& table, const std::string& path,
                            const std::filesystem::path& scene_file);

}  // namespace lagrange::app
