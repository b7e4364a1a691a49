#!/usr/bin/env bash
# Runs seeds of the whole-system simulation (docs/reliability.md): COUNT seeds from FIRST (default 1),
# each one a few runs of several users under faults, checked against the invariants after every step.
# A failing seed prints a line that reruns it alone.
#
# Usage: scripts/simulate.sh 100000            100,000 seeds from seed 1
#        scripts/simulate.sh 1000 5000          1,000 seeds from seed 5000
#        SIM_FAULTS=all scripts/simulate.sh 200 every fault kind, also those of known defects
#        SIM_FAULTS=kill9,resume scripts/simulate.sh 200
# Needs: java.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

count="${1:?usage: scripts/simulate.sh COUNT [FIRST]}"
first="${2:-1}"
faults=()
if [[ -n "${SIM_FAULTS:-}" ]]; then
  faults=("-Dsim.faults=$SIM_FAULTS")
fi

./mvnw -B -q -pl simulation -am test -Dtest=SimulationTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dsim.seeds="$count" -Dsim.first="$first" "${faults[@]}"
