#!/usr/bin/env bash
# Runs `lagrange-lab bench --budget 10` and writes its table into README.md between the markers
# <!-- bench-table --> and <!-- /bench-table -->, so the README's numbers always come from one run of the program.
#   scripts/bench-table.sh [PATH/TO/lagrange-lab]     (default: build/app/lagrange-lab)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$root/build/app/lagrange-lab}
if [ ! -x "$exe" ]; then
  echo "bench-table: no executable at $exe; build first (cmake --build build) or pass its path" >&2
  exit 1
fi
json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$exe" bench --budget 10 --json "$json" >/dev/null
python3 - "$json" "$root/README.md" <<'PY'
import json, sys
cells = json.load(open(sys.argv[1]))  # one object per cell
def num(v, fmt):
    return "—" if v is None else fmt.format(v)
rows = ["| workload | solver | CPU µs/step mean | median | iter/step | max\\|C\\|/L | overlap | dE | fail / recov / held | steps |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
for c in cells:
    steps = f"{c['steps']}/{c['planned_steps']} cut" if c["cut"] else str(c["steps"])
    if c["steps"] == 0:
        rows.append(f"| {c['workload']} | {c['solver']} | — | — | — | — | — | — | — | {steps}: one step took longer than the budget |")
        continue
    rows.append(f"| {c['workload']} | {c['solver']} | {c['cpu_mean_us']:.1f} | {c['cpu_median_us']:.1f} | "
                f"{c['iterations_per_step']:.1f} | {num(c['max_relative_violation'], '{:.2e}')} | {num(c['overlap'], '{:.2e}')} | {num(c['dE'], '{:+.2e}')} | "
                f"{c['failures']} / {c['recoveries']} / {c['held']} | {steps} |")
readme = open(sys.argv[2]).read()
begin, end = "<!-- bench-table -->", "<!-- /bench-table -->"
i, j = readme.index(begin) + len(begin), readme.index(end)
open(sys.argv[2], "w").write(readme[:i] + "\n" + "\n".join(rows) + "\n" + readme[j:])
print(f"bench-table: {len(cells)} cells written into README.md")
PY
