// The trajectory CSV, written the same way by `run --csv` and by the sandbox's Export CSV: one header, then one row
// per written step, every number the shortest text that reads back to the same double (format_number).
#pragma once

#include <cstddef>
#include <string>

#include "capture/output_file.h"
#include "lagrange/diagnostics.h"
#include "lagrange/model.h"

namespace lagrange::io {

// step,t,kinetic,potential,energy,violation,x0,y0,z0,vx0,vy0,vz0,x1,...; with lanes, "lane,solver," in front;
// `more` (",name,..." or "") after the particles' columns.
void write_trajectory_header(OutputFile& out, std::size_t particles, bool lanes, const std::string& more = {});
// The columns in front of a lane's rows: "LANE,SOLVER," (lane numbered from 1).
inline std::string lane_prefix(int lane, const std::string& solver) {
  return std::to_string(lane) + "," + solver + ",";
}
// One row: `prefix` ("" or "LANE,SOLVER,"), then the state's step and time, the energy, the violation (max |C| in
// metres over the scene's rows), and every particle's position and velocity. `line` is a buffer reused between rows.
// `more` (",value,..." or "") goes after the particles' columns.
void write_trajectory_row(OutputFile& out, std::string& line, const std::string& prefix, const State& state,
                          const Energy& energy, double violation, const std::string& more = {});

}  // namespace lagrange::io
