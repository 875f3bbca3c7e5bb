// `lagrange-lab matrix`: the constraint matrix J M⁻¹ Jᵀ of a scene's state, its rank, dependent rows and condition
// (lagrange/matrix_analysis.h), printed, and written as a CSV or a heat-map PNG.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capture/output_file.h"
#include "cli/commands.h"
#include "lagrange/matrix_analysis.h"
#include "lagrange/scene.h"
#include "lagrange/text.h"
#include "options/args.h"

namespace lagrange::cli {
namespace {

constexpr const char* kMatrixUsage = R"usage(usage: lagrange-lab matrix SCENE [options]

The constraint matrix of SCENE's state: A = J M^-1 J^T over its rows (J the rows' gradients, M the masses; fixed
particles do not move), the acceleration level's right-hand side b = -(J M^-1 F + Jdot qdot) and the multipliers
A lambda = b, then prints
  rows N          constraint rows
  rank R          independent rows (eigenvalues of A above 1e-10 of the largest)
  dependent K     rows whose gradient lies in the span of the rows before them, each named on a line
                  "dependent row k: KIND #c (particles ...)"
  condition C     largest / smallest nonzero eigenvalue of A
and, for at most 12 rows, A, b and lambda as a table. At most 1500 rows.

options:
  --time T        first simulate T seconds (default 0: the scene as written), with the scene's solver
  --solver NAME   the solver that simulates to --time
  --set KEY=VALUE change a setting (repeatable; run --help lists them)
  --out FILE      FILE.csv: one line per row (row, constraint, kind, particles, b, lambda, A's row);
                  FILE.png: A as a heat map (red positive, blue negative, white zero; dependent rows marked orange
                  on the left). Complete or not written at all.
  --allow-large   lift the limits on scene size (docs/cli.md)
  --help          this text
Exit codes: 0 ok, 1 could not write output, 2 bad command line or scene file (or more than 1500 rows), 3 the
simulation to --time failed (non-finite state).
)usage";

struct MatrixOptions {
  std::optional<std::string> scene_path, solver, out;
  double time = 0.0;
  SettingPairs sets;
  SceneLimits limits;
};

std::string row_name(const MatrixRow& row) {
  std::string text = row.kind + " #" + std::to_string(row.constraint);
  if (row.row > 0) text += " row " + std::to_string(row.row);
  text += " (particle" + std::string(row.particles.size() == 1 ? " " : "s ");
  for (std::size_t i = 0; i < row.particles.size(); ++i)
    text += (i ? ", " : "") + std::to_string(row.particles[i]);
  return text + ")";
}

std::string csv_text(const MatrixAnalysis& m) {
  std::string text = "row,constraint,kind,particles,b,lambda";
  for (int l = 0; l < m.rows; ++l) {
    text += ",A";
    text += std::to_string(l);
  }
  text += "\n";
  for (int k = 0; k < m.rows; ++k) {
    const MatrixRow& r = m.row_info[k];
    std::string particles;
    for (std::size_t i = 0; i < r.particles.size(); ++i) {  // appended piece by piece: "," + a temporary string
      if (i) particles += ' ';                                  // set off GCC 12's -Wrestrict (a false alarm)
      particles += std::to_string(r.particles[i]);
    }
    text += std::to_string(k) + "," + std::to_string(r.constraint) + "," + r.kind + "," + particles + "," +
            format_number(m.rhs[k]) + "," + format_number(m.lambda[k]);
    for (int l = 0; l < m.rows; ++l) {
      text += ',';
      text += format_number(m.a[static_cast<std::size_t>(k) * m.rows + l]);
    }
    text += "\n";
  }
  return text;
}

// A as a heat map: one square cell per entry, a diverging scale on max |A_kl|, an orange mark left of dependent rows.
std::vector<std::uint8_t> heat_map(const MatrixAnalysis& m, int& width, int& height) {
  const int n = std::max(m.rows, 1);
  const int cell = std::clamp(720 / n, 1, 48);
  const int margin = std::max(4, cell / 2);
  width = height = n * cell + 2 * margin;
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4, 255);
  double largest = 0.0;
  for (double v : m.a) largest = std::max(largest, std::abs(v));
  std::vector<bool> dependent(static_cast<std::size_t>(n), false);
  for (int k : m.dependent) dependent[static_cast<std::size_t>(k)] = true;
  const auto paint = [&](int x0, int y0, int w, int h, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
    for (int y = y0; y < y0 + h; ++y)
      for (int x = x0; x < x0 + w; ++x) {
        std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
        p[0] = r, p[1] = g, p[2] = b, p[3] = 255;
      }
  };
  for (int k = 0; k < m.rows; ++k) {
    if (dependent[static_cast<std::size_t>(k)]) paint(0, margin + k * cell, margin - 1, cell, 240, 140, 20);
    for (int l = 0; l < m.rows; ++l) {
      const double v = m.a[static_cast<std::size_t>(k) * m.rows + l];
      const double t = largest > 0.0 ? std::sqrt(std::min(std::abs(v) / largest, 1.0)) : 0.0;  // small entries show
      const auto fade = [&](double full) { return static_cast<std::uint8_t>(std::lround(255.0 - t * (255.0 - full))); };
      if (v >= 0.0) paint(margin + l * cell, margin + k * cell, cell, cell, fade(200), fade(30), fade(40));
      else paint(margin + l * cell, margin + k * cell, cell, cell, fade(30), fade(80), fade(210));
    }
  }
  return rgba;
}

bool parse_matrix_options(int argc, char** argv, MatrixOptions& o) {
  Args args(argc, argv);
  while (!args.empty()) {
    if (args.flag("--help") || args.flag("-h")) {
      std::fputs(kMatrixUsage, stdout);
      return true;
    }
    if (auto v = args.option("--time")) {
      o.time = parse_number("--time", *v);
      if (!(o.time >= 0.0 && o.time <= 1e9)) throw UsageError("--time: must be in 0 .. 1e9 s, got " + *v);
      continue;
    }
    if (auto v = args.option("--solver")) { o.solver = *v; continue; }
    if (auto v = args.option("--out")) { o.out = *v; continue; }
    if (set_option(args, o.sets)) continue;
    if (scene_option(args, o.limits)) continue;
    if (!o.scene_path) {
      if (auto p = args.positional()) { o.scene_path = *p; continue; }
    }
    args.finish();
  }
  if (!o.scene_path) throw UsageError("missing SCENE (see --help)");
  if (o.out) {
    if (o.out->empty()) throw UsageError("--out needs a file name");
    if (!o.out->ends_with(".csv") && !o.out->ends_with(".png"))
      throw UsageError("--out: the file must end in .csv or .png, got " + lagrange::quoted(*o.out));
    io::refuse_same_file(*o.scene_path, *o.out);
  }
  return false;
}

}  // namespace

int matrix_main(int argc, char** argv, const PngEncoder& encode_png) {
  MatrixOptions o;
  if (parse_matrix_options(argc, argv, o)) return 0;
  if (o.out && o.out->ends_with(".png") && !encode_png)
    throw UsageError("--out: PNG needs the sandbox's build (LAGRANGE_BUILD_APP); write a .csv");
  Scene scene = load_scene_file(*o.scene_path, o.limits);
  if (o.solver) {
    if (std::string problem = set_setting(scene.settings, "solver", *o.solver); !problem.empty()) throw UsageError(problem);
  }
  apply_sets(scene.settings, o.sets);
  World world = make_world(scene);
  const long steps = o.time > 0.0 ? steps_for_duration(o.time, world.settings().dt) : 0;
  check_substeps(steps, world.settings().substeps);
  for (long s = 0; s < steps; ++s) {
    world.step();
    if (world.stats().non_finite) {
      std::fprintf(stderr, "lagrange-lab matrix: the simulation became non-finite at t = %s s\n",
                   format_number(world.time()).c_str());
      return kExitSimulationFailed;
    }
  }
  const MatrixAnalysis m = analyse_matrix(world);
  if (o.out) {
    io::OutputFile file(*o.out);
    if (o.out->ends_with(".csv")) {
      file.write(csv_text(m));
    } else {
      int width = 0, height = 0;
      const std::vector<std::uint8_t> rgba = heat_map(m, width, height);
      std::string png;
      if (!encode_png(width, height, rgba, png)) throw std::bad_alloc();
      file.write(png);
    }
    file.commit();
  }
  std::printf("t %s s\n", format_number(world.time()).c_str());
  std::printf("rows %d\nrank %d\ndependent %zu\ncondition %s\n", m.rows, m.rank, m.dependent.size(),
              format_number(m.condition).c_str());
  for (int k : m.dependent) std::printf("dependent row %d: %s\n", k, row_name(m.row_info[k]).c_str());
  if (m.rows > 0 && m.rows <= 12) {
    std::printf("\n%-34s %12s %12s   A = J M^-1 J^T\n", "row", "b", "lambda");
    for (int k = 0; k < m.rows; ++k) {
      std::printf("%-34s %12.5g %12.5g  ", (std::to_string(k) + " " + row_name(m.row_info[k])).c_str(), m.rhs[k],
                  m.lambda[k]);
      for (int l = 0; l < m.rows; ++l) std::printf(" %10.4g", m.a[static_cast<std::size_t>(k) * m.rows + l]);
      std::printf("\n");
    }
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fputs("lagrange-lab matrix: could not write to standard output\n", stderr);
    return kExitOutputFailed;
  }
  return 0;
}

}  // namespace lagrange::cli
