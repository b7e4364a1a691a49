#!/usr/bin/env bash
# usage: scripts/reproductions.sh [--only NAME]... [--timeout SECONDS] [--keep]   # replays the fixed defects' reproductions
# Each scenario runs real `berth` commands in a fresh temporary folder with its own host ledger, checks from outside
# Berth that it now ends correctly, and prints one table line: scenario | expected | seen | ending | seconds
# (docs/reliability.md, "The defects' reproductions"). Exits 0 only when every scenario passed (or was skipped).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v python3 >/dev/null || { echo "reproductions: python3 (3.8 or later) is needed" >&2; exit 2; }
# Build the command once here, not inside a scenario's timed commands.
rc=0
"$here/../berth" --help >/dev/null 2>&1 || rc=$?
if [ "$rc" -eq 3 ]; then echo "reproductions: ./berth could not be built (run it once to see why)" >&2; exit 3; fi
exec python3 "$here/reproductions.py" "$@"
