#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, and open the sandbox on its default scene.
# Arguments go to lagrange-lab (e.g. scripts/run.sh assets/hanging_cloth.json, or scripts/run.sh run SCENE).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
exec "${BUILD_DIR:-$root/build}/app/lagrange-lab" "$@"
