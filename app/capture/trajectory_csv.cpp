#include "capture/trajectory_csv.h"

#include "lagrange/text.h"

namespace lagrange::io {

void write_trajectory_header(OutputFile& out, std::size_t particles, bool lanes, const std::string& more) {
  if (lanes) out.write("lane,solver,");
  out.write("step,t,kinetic,potential,energy,violation");
  for (std::size_t i = 0; i < particles; ++i) out.print(",x%zu,y%zu,z%zu,vx%zu,vy%zu,vz%zu", i, i, i, i, i, i);
  out.write(more);
  out.write("\n");
}

void write_trajectory_row(OutputFile& out, std::string& line, const std::string& prefix, const State& state,
                          const Energy& energy, double violation, const std::string& more) {
  line = prefix;
  line += std::to_string(state.step);
  for (double value : {state.time, energy.kinetic, energy.potential, energy.total(), violation}) {
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
