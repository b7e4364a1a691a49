#!/usr/bin/env bash
# End-to-end throughput benchmark: Berth against xargs -P on many no-op tasks.
#
# Runs BENCH_TASKS (default 500) tasks of `true`, BENCH_PARALLEL (default 2) at a time, through
# `berth run`, through `xargs -P`, and through a bare JVM loop that starts processes the way Berth
# does (SpawnFloor in bench/: the JVM's own ceiling), BENCH_RUNS times (default 3). Prints tasks/s
# for each, Berth's ratio to xargs and Berth's median refill latency: for each start after the
# first BENCH_PARALLEL, the time since the latest finish before it, from report.json.
# Build time is excluded; Berth's JVM start is not (see the in-run column for without).
#
# Run it on an otherwise idle machine: by default Berth starts nothing while other processes keep
# the CPUs more than 80% busy (utilization-limit.cpu), so a busy machine measures that gate.
# BENCH_CPU_LIMIT=1.0 turns the gate off for a diagnostic run.
# BENCH_RUN_FLAGS adds flags to `berth run`, e.g. BENCH_RUN_FLAGS=--no-journal to measure what the
# journal costs.
# BENCH_BERTH replaces ./berth, e.g. BENCH_BERTH="java -XX:+UseSerialGC -jar saved/berth.jar" to time
# a saved build while the sources are being edited (the launcher would rebuild inside a timed run);
# it runs from the repository root.
#
# Usage: scripts/bench-throughput.sh            (from any directory)
#        BENCH_RUNS=5 BENCH_TASKS=1000 scripts/bench-throughput.sh
# Needs: java, mvn (for the build), python3, xargs, seq.
set -euo pipefail
export LC_ALL=C   # decimal points in EPOCHREALTIME and printf

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

runs="${BENCH_RUNS:-3}"
tasks="${BENCH_TASKS:-500}"
parallel="${BENCH_PARALLEL:-2}"
cpu_limit="${BENCH_CPU_LIMIT:-}"
read -r -a berth <<<"${BENCH_BERTH:-./berth}"

for tool in java mvn python3 xargs seq; do
  command -v "$tool" >/dev/null || { echo "bench-throughput: $tool not found" >&2; exit 2; }
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/berth-bench.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

now() {
  if [ -n "${EPOCHREALTIME:-}" ]; then
    echo "$EPOCHREALTIME"
  else
    python3 -c 'import time; print(f"{time.time():.6f}")'
  fi
}

# spec FILE NAME WORKDIR COUNT: one group of COUNT `true` tasks, PARALLEL at a time.
spec() {
  {
    echo "name: $2"
    echo "workdir: \"$3\""
    echo "config:"
    echo "  scheduler: {max-process: $parallel}"
    if [ -n "$cpu_limit" ]; then echo "  utilization-limit: {cpu: $cpu_limit}"; fi
    echo "groups:"
    echo "  - name: bench"
    echo "    memory: 1MiB"
    echo "    tasks:"
    for i in $(seq "$4"); do
      echo "      - id: t-$i"
      echo "        command: [\"true\"]"
      echo "        cpus: 1"
    done
  } >"$1"
}

# berth_run SPEC LOG: runs berth, showing its output only when it fails.
berth_run() {
  if ! "${berth[@]}" run --no-progress ${BENCH_RUN_FLAGS:-} "$1" >"$2" 2>&1; then
    echo "bench-throughput: berth run $1 failed; its output:" >&2
    tail -n 40 "$2" >&2
    exit 1
  fi
  if grep -q "berth: building" "$2"; then
    echo "bench-throughput: the launcher rebuilt berth inside a timed run (sources changed meanwhile); rerun" >&2
    exit 1
  fi
}

# Warns when other processes kept the CPUs busy over the last second (Linux only).
load_warning() {
  [ -r /proc/stat ] || return 0
  python3 - <<'PY' >&2
import time

def ticks():
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return sum(values), values[3] + values[4]

total0, idle0 = ticks()
time.sleep(1)
total1, idle1 = ticks()
busy = 1 - (idle1 - idle0) / max(1, total1 - total0)
if busy > 0.2:
    print(f"bench-throughput: warning: the CPUs were {busy:.0%} busy before this run; figures will be low and noisy")
PY
}

echo "building berth and the benchmarks (not timed)..." >&2
modules=cli,bench
if [ -n "${BENCH_BERTH:-}" ]; then modules=bench; fi
mvn -q -B -Dmaven.test.skip=true -pl "$modules" -am package >&2
floor_jar=bench/target/berth-benchmarks.jar
# One untimed run loads the jar and the JVM into the page cache, as a second run would find them,
# and lets the launcher rebuild if a source changed since the build above.
spec "$tmp/warmup.yaml" warmup "$tmp/warmup-out" 4
if ! "${berth[@]}" run --no-progress "$tmp/warmup.yaml" >"$tmp/warmup.log" 2>&1; then
  echo "bench-throughput: the warm-up run failed; its output:" >&2
  tail -n 40 "$tmp/warmup.log" >&2
  exit 1
fi

results="$tmp/results.txt"
: >"$results"
for run in $(seq "$runs"); do
  echo "run $run/$runs..." >&2
  load_warning
  out="$tmp/run-$run"
  spec "$tmp/bench-$run.yaml" "bench-$run" "$out" "$tasks"

  t0="$(now)"
  berth_run "$tmp/bench-$run.yaml" "$tmp/berth-$run.log"
  t1="$(now)"
  seq "$tasks" | xargs -P "$parallel" -I{} true
  t2="$(now)"
  jvm="$(java -XX:+UseSerialGC -cp "$floor_jar" dev.berth.bench.SpawnFloor "$tmp/floor-$run" "$tasks" "$parallel")"

  echo "$run $t0 $t1 $t2 $jvm $out/report.json" >>"$results"
done

python3 - "$results" "$tasks" "$parallel" <<'PY'
import bisect
import json
import statistics
import sys
from datetime import datetime

results, tasks, parallel = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def parse(ts):
    # fromisoformat before Python 3.11 rejects the trailing Z.
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


def analyse(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    attempts = [a for g in report["groups"] for t in g["tasks"] for a in t["attempts"]]
    ok = sum(1 for g in report["groups"] for t in g["tasks"] if t["status"] == "SUCCEEDED")
    if ok != tasks:
        sys.exit(f"bench-throughput: only {ok} of {tasks} tasks succeeded in {path}")
    starts = sorted(parse(a["startedAt"]) for a in attempts)
    finishes = sorted(parse(a["finishedAt"]) for a in attempts if a.get("finishedAt"))
    gaps = []
    for s in starts[parallel:]:
        i = bisect.bisect_right(finishes, s)
        if i:
            gaps.append(s - finishes[i - 1])
    in_run = parse(report["finishedAt"]) - parse(report["startedAt"])
    if not gaps:
        return in_run, float("nan"), float("nan")
    return in_run, statistics.median(gaps) * 1000, max(gaps) * 1000


rows = []
for line in open(results, encoding="utf-8"):
    run, t0, t1, t2, jvm, report = line.split()
    berth_s, xargs_s = float(t1) - float(t0), float(t2) - float(t1)
    in_run, refill_ms, refill_max_ms = analyse(report)
    rows.append((run, berth_s, tasks / berth_s, tasks / in_run, xargs_s, tasks / xargs_s, float(jvm),
                 (tasks / berth_s) / (tasks / xargs_s), refill_ms, refill_max_ms))

head = ("run", "berth s", "berth t/s", "in-run t/s", "xargs s", "xargs t/s", "jvm t/s", "ratio", "refill ms",
        "max ms")
fmt = "{:<7}{:>9}{:>11}{:>12}{:>9}{:>11}{:>9}{:>8}{:>11}{:>8}"
cells = lambda name, v: fmt.format(name, f"{v[0]:.3f}", f"{v[1]:.0f}", f"{v[2]:.0f}", f"{v[3]:.3f}", f"{v[4]:.0f}",
                                   f"{v[5]:.0f}", f"{v[6]:.2f}", f"{v[7]:.1f}", f"{v[8]:.0f}")
print(f"{tasks} tasks of `true`, {parallel} at a time")
print(fmt.format(*head))
for r in rows:
    print(cells(r[0], r[1:]))
med = [statistics.median(r[i] for r in rows) for i in range(1, 10)]
print(cells("median", med))
print("berth t/s: wall clock of `berth run`, JVM start included; in-run t/s: report startedAt..finishedAt;")
print("jvm t/s: bare JVM threads starting the same processes (no scheduling); ratio: berth t/s / xargs t/s;")
print("refill ms: median time from the latest finish to a start (report timestamps have 1 ms resolution); max ms: longest")
print(f"targets: ratio >= 0.80 ({'met' if med[6] >= 0.8 else 'missed'}), "
      f"median refill < 5 ms ({'met' if med[7] < 5 else 'missed'})")
PY
