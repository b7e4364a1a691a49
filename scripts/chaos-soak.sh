#!/usr/bin/env bash
# The real-process chaos soak: random kill -9, SIGTERM and SIGINT of real `berth run`s sharing a simulated
# GPU, each continued as the docs say, checked from outside Berth (docs/reliability.md, "Real-process chaos soak").
#   usage: scripts/chaos-soak.sh [--trials N] [--seed S] [--jobs J] [--out DIR] [--only T] [--keep]
#          scripts/chaos-soak.sh --trials 250 --jobs 2    # about 1,000 interruptions
# Exits 0 when every figure is 0, 1 when any is not; the summary is also in DIR/summary.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v python3 >/dev/null || { echo "chaos-soak: python3 (3.8 or later) is needed" >&2; exit 2; }
# Build the command once here, not in the first trial's concurrent starts.
rc=0
"$here/../berth" --help >/dev/null 2>&1 || rc=$?
if [ "$rc" -eq 3 ]; then echo "chaos-soak: ./berth could not be built (run it once to see why)" >&2; exit 3; fi
exec python3 "$here/chaos_soak.py" "$@"
