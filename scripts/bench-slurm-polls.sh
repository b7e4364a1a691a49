#!/usr/bin/env bash
# Slurm polling load: how many sbatch, squeue, sacct, scontrol and scancel calls one Berth run makes,
# counted by shims on the PATH that log each call and then exec the real command (so the run talks to
# the real cluster as usual).
#
# Variants (BENCH_VARIANTS, default "short long"):
#
#   short   BENCH_TASKS (default 200) tasks of `sleep 0.5` as one matrix, scheduler.max-process 20:
#           one `sbatch --array=0-199%20`, jobs ending every fraction of a second
#   long    BENCH_LONG_TASKS (default 4) tasks of `sleep BENCH_LONG_SECONDS` (default 60), max-process 2:
#           tasks of a minute, the case polling should cost next to nothing in
#
# Each task asks for 1 CPU and 100 MiB. For each variant it prints the wall time, the calls of each
# command, the calls beyond the submissions per 1,000 tasks, and the average seconds between two
# squeue/sacct calls; then from report.json the attempts' run times added up, how many have a peak
# memory and Slurm's accounting, and the reserved CPU of the efficiency figures. Berth is built beforehand (not timed); BENCH_BERTH replaces ./berth, e.g.
# BENCH_BERTH="java -jar saved/berth.jar" for another build. Run it on an otherwise idle cluster.
#
# Usage: scripts/bench-slurm-polls.sh
#        BENCH_VARIANTS=long BENCH_LONG_TASKS=8 scripts/bench-slurm-polls.sh
set -euo pipefail
export LC_ALL=C

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
read -r -a variants <<<"${BENCH_VARIANTS:-short long}"
read -r -a berth <<<"${BENCH_BERTH:-./berth}"
short_tasks="${BENCH_TASKS:-200}"
long_tasks="${BENCH_LONG_TASKS:-4}"
long_seconds="${BENCH_LONG_SECONDS:-60}"

tmp="$(mktemp -d -t berth-bench-polls.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/shims"
for tool in sbatch squeue sacct scontrol scancel; do
  real="$(command -v "$tool")" || { echo "bench-slurm-polls: $tool not found" >&2; exit 2; }
  printf '#!/bin/sh\necho "%s $(date +%%s.%%N)" >>"$BENCH_CALLS"\nexec "%s" "$@"\n' "$tool" "$real" >"$tmp/shims/$tool"
  chmod +x "$tmp/shims/$tool"
done
if [ -z "${BENCH_BERTH:-}" ]; then ./berth --help >/dev/null 2>&1 || true; fi  # builds it once, untimed

# spec FILE NAME COUNT COMMAND MAX_PROCESS
spec() {
  {
    echo "name: $2"
    echo "workdir: \"$tmp/$2\""
    echo "config:"
    echo "  scheduler: {max-process: $5}"
    echo "groups:"
    echo "  - name: bench"
    echo "    tasks:"
    echo "      - id: \"t-{i}\""
    echo "        matrix: {i: [$(seq -s ', ' 0 $(($3 - 1)))]}"
    echo "        command: [\"sh\", \"-c\", \"$4\"]"
    echo "        cpus: 1"
    echo "        memory: 100MiB"
  } >"$1"
}

for v in "${variants[@]}"; do
  case "$v" in
    short) n="$short_tasks"; spec "$tmp/$v.yaml" "polls-$v" "$n" "sleep 0.5" 20 ;;
    long) n="$long_tasks"; spec "$tmp/$v.yaml" "polls-$v" "$n" "sleep $long_seconds" 2 ;;
    *) echo "bench-slurm-polls: unknown variant $v (short, long)" >&2; exit 2 ;;
  esac
  export BENCH_CALLS="$tmp/$v.calls"
  : >"$BENCH_CALLS"
  t0="$EPOCHREALTIME"
  if ! PATH="$tmp/shims:$PATH" BERTH_HOST_DIR="$tmp/host" "${berth[@]}" run --no-progress --executor slurm \
      "$tmp/$v.yaml" >"$tmp/$v.log" 2>&1; then
    echo "bench-slurm-polls: berth run failed ($v); its output:" >&2
    tail -n 30 "$tmp/$v.log" >&2
    exit 1
  fi
  t1="$EPOCHREALTIME"
  python3 - "$v" "$n" "$t0" "$t1" "$BENCH_CALLS" "$tmp/polls-$v/report.json" <<'PY'
import datetime
import json
import sys
variant, tasks, t0, t1, path = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
report = json.load(open(sys.argv[6]))
calls = [line.split() for line in open(path) if line.strip()]
count = {t: sum(1 for c in calls if c[0] == t) for t in ("sbatch", "squeue", "sacct", "scontrol", "scancel")}
wall = t1 - t0
beyond = sum(count.values()) - count["sbatch"]
queries = count["squeue"] + count["sacct"]
print(f"{variant}: {tasks} tasks, wall {wall:.1f} s; " + ", ".join(f"{k} {v}" for k, v in count.items())
      + f"; beyond sbatch {beyond} = {1000 * beyond / tasks:.0f} per 1,000 tasks"
      + f"; one squeue/sacct every {wall / max(1, queries):.1f} s")
def at(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
attempts = [a for g in report["groups"] for t in g["tasks"] for a in t["attempts"] if a.get("finishedAt")]
run_time = sum(at(a["finishedAt"]) - at(a["startedAt"]) for a in attempts)
peaks = sum(1 for a in attempts if a.get("peakMemoryBytes") is not None)
accounted = sum(1 for a in attempts if a.get("cluster"))
reserved = report.get("efficiency", {}).get("cpu", {}).get("reserved")
print(f"{variant} report: {len(attempts)} attempts, run times add up to {run_time:.0f} s, peak memory for {peaks},"
      f" Slurm accounting for {accounted}, reserved CPU {reserved} core-s")
PY
done
