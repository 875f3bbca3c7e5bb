#!/usr/bin/env bash
# Renders every shipped scene into docs/images/<scene>.png with `lagrange-lab shot` (SDL's offscreen driver: no
# display, no GPU needed), plus docs/images/sandbox.png of the whole window with its panels. The PNGs in docs/images
# are made by this script: rerun it after changing a scene, the renderer or the panels, and commit the result.
#   scripts/make-screenshots.sh [PATH/TO/lagrange-lab]     (default: build/app/lagrange-lab)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$root/build/app/lagrange-lab}
if [ ! -x "$exe" ]; then
  echo "make-screenshots: no executable at $exe; build first (cmake --build build) or pass its path" >&2
  exit 1
fi
out=$root/docs/images
mkdir -p "$out"

# Simulated seconds before the picture: a moment that shows what the scene is about.
seconds_for() {
  case "$1" in
    double_pendulum) echo 1.2 ;;
    triple_pendulum) echo 1.5 ;;
    hanging_cloth | soft_cloth) echo 2.5 ;;
    hanging_chain | rope_bridge) echo 2.0 ;;
    galileo_chords) echo 0.6 ;;
    cart_pendulum) echo 0.8 ;;
    period_amplitude) echo 4.0 ;;
    coupled_pendulums) echo 4.2 ;;
    ball_on_a_string) echo 1.2 ;;
    bouncing_ball) echo 1.35 ;;
    falling_chain) echo 0.25 ;;
    newtons_cradle) echo 0.45 ;;
    chain_over_a_peg) echo 1.5 ;;
    cloth_on_a_sphere) echo 1.5 ;;
    friction_on_an_incline) echo 0.8 ;;
    *) echo 1.0 ;;
  esac
}

for scene in "$root"/assets/*.json; do
  name=$(basename "$scene" .json)
  "$exe" shot "$scene" --time "$(seconds_for "$name")" --size 960x540 --out "$out/$name.png"
done
# Relative path, so the path field in the picture shows no machine's folders.
(cd "$root" && "$exe" shot assets/double_pendulum.json --time 2.0 --panels --size 1280x720 --out "$out/sandbox.png")
# Lanes (docs/app.md): projection against the acceleration level after 10 s, overlaid and side by side.
(cd "$root" && "$exe" shot assets/double_pendulum.json --time 10 --size 960x540 --lanes projection,acceleration \
  --exaggerate 10 --rest-lengths --out "$out/lanes_overlay.png")
(cd "$root" && "$exe" shot assets/double_pendulum.json --time 10 --size 1280x720 --panels \
  --lanes projection,acceleration,penalty,rattle --lane-view split --exaggerate 100 --out "$out/lanes_split.png")
# Projector mode: light theme at 2x on a 1920x1080 projector (docs/app.md, "Projector mode").
(cd "$root" && "$exe" shot assets/double_pendulum.json --time 2.0 --panels --size 1920x1080 --ui-scale 2 \
  --theme light --out "$out/projector_light.png")
(cd "$root" && "$exe" shot assets/simple_pendulum.json --time 5 --measure --size 1920x1080 --out "$out/measure_tools.png")
# The three lesson plans of docs/app.md, "Teaching with Lagrange Lab".
(cd "$root" && "$exe" shot assets/double_pendulum.json --time 10 --size 1920x1080 --panels --ui-scale 1.5 \
  --theme light --lanes projection,acceleration --exaggerate 10 --rest-lengths --length-labels \
  --out "$out/lesson_drift.png")
(cd "$root" && "$exe" shot assets/period_amplitude.json --time 20 --size 1920x1080 --measure --out "$out/lesson_period.png")
(cd "$root" && "$exe" shot assets/coupled_pendulums.json --time 8.3 --size 1920x1080 --measure \
  --out "$out/lesson_coupled.png")
# Contacts (issue 23): the falling chain's table on the Measure strip's scale, against three times the weight on it.
(cd "$root" && "$exe" shot assets/falling_chain.json --time 0.3 --size 1920x1080 --measure \
  --out "$out/lesson_scale.png")
(cd "$root" && "$exe" shot assets/friction_on_an_incline.json --time 0.8 --size 1920x1080 --measure \
  --out "$out/lesson_incline.png")
# Seeing the method (issue 25): one projection substep taken apart, and the order of accuracy of every solver.
(cd "$root" && "$exe" shot assets/double_pendulum.json --step-view --time 1 --size 1280x720 --out "$out/step_view.png")
(cd "$root" && "$exe" converge assets/simple_pendulum.json --until 1 --plot "$out/converge_plot.png" >/dev/null)
echo "make-screenshots: wrote $(ls "$out"/*.png | wc -l) PNGs into docs/images"
