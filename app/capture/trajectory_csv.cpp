#include "capture/trajectory_csv.h"

#include "lagrange/text.h"
#include "lagrange/trajectory.h"

namespace lagrange::io {

void write_trajectory_header(OutputFile& out, std::size_t particles, bool lanes, const std::string& more) {
  std::string line = lanes ? "lane,solver," : "";
  for (std::size_t c = 0; c < kTrajectoryColumns.size(); ++c) {
    if (c) line += ',';
    line += kTrajectoryColumns[c];
  }
  for (std::size_t i = 0; i < particles; ++i)
    for (const char* column : kParticleColumns) {
      line += ',';
      line += column;
      line += std::to_string(i);
    }
  line += more;
  line += '\n';
  out.write(line);
}

void write_trajectory_row(OutputFile& out, std::string& line, const std::string& prefix, const State& state,
                          const Energy& energy, double violation, const std::string& more) {
  const TrajectorySample sample = trajectory_sample(state, energy, violation);
  line = prefix;
  line += std::to_string(sample.step);
  for (double value : sample.values) {
    line += ',';
    line += format_number(value);
  }
  for (std::size_t i = 0; i < state.position.size(); ++i)
    for (const Vec3& u : {state.position[i], state.velocity[i]})
      for (int k = 0; k < 3; ++k) {
        line += ',';
        line += format_number(u[k]);
      }
  line += more;
  line += '\n';
  out.write(line);
}

}  // namespace lagrange::io
