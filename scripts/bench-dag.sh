#!/usr/bin/env bash
# End-to-end DAG benchmark: how close Berth gets to the lower bound on a layered DAG, and make -j2.
#
# A DAG of BENCH_LAYERS (default 10) layers x BENCH_WIDTH (default 10) tasks, each `sleep
# BENCH_SLEEP` (default 0.05), every task asking for one core, BENCH_SLOTS (default 2) at a time
# (scheduler.max-process), all in one group so that only the dependencies order them. Three wirings:
#   full    every task depends on all tasks of the layer before (after: "lNN-*")
#   sparse  every task depends on 1 or 2 random tasks of the layer before (fixed seed BENCH_SEED)
#   none    no dependencies at all: the control, same tasks and slots, to tell the cost of the
#           dependency machinery from the cost of starting processes
# For each wiring and each of BENCH_RUNS (default 3) repetitions it runs `./berth run` and takes the
# makespan from report.json (first attempt start to last attempt end: JVM start and report writing
# excluded), then runs the same graph with `make -jSLOTS` from a generated Makefile (each target
# `sleep BENCH_SLEEP`), timed from outside. It prints the medians, the lower bound
#   max(critical path = LAYERS x SLEEP, total work / SLOTS = LAYERS x WIDTH x SLEEP / SLOTS)
# and Berth's overhead over it, plus where Berth's time went: the median attempt length (process
# start, the sleep, exit seen) and the median refill gap (from an attempt's end to the next start),
# and how busy the CPUs were during each Berth run (a shared machine makes every figure worse).
# When bench/target/berth-benchmarks.jar exists (mvn -pl bench -am package), the control wiring
# also gets the JVM floor: bench's SpawnFloor running the same sleeps SLOTS at a time, no scheduler.
#
# Run it on an otherwise idle machine. By default Berth starts nothing while other processes keep
# the CPUs more than 80% busy (utilization-limit.cpu); BENCH_CPU_LIMIT=1.0 turns that gate off.
#
# Usage: scripts/bench-dag.sh                 (from any directory)
#        BENCH_RUNS=5 BENCH_CPU_LIMIT=1.0 BENCH_WIRINGS="full sparse" scripts/bench-dag.sh
# Needs: java, mvn (for the build), python3, make.
set -euo pipefail
export LC_ALL=C

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

runs="${BENCH_RUNS:-3}"
layers="${BENCH_LAYERS:-10}"
width="${BENCH_WIDTH:-10}"
sleep_s="${BENCH_SLEEP:-0.05}"
slots="${BENCH_SLOTS:-2}"
seed="${BENCH_SEED:-42}"
cpu_limit="${BENCH_CPU_LIMIT:-}"

for tool in java mvn python3 make; do
  command -v "$tool" >/dev/null || { echo "bench-dag: $tool not found" >&2; exit 2; }
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/berth-bench-dag.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# generate WIRING SPEC MAKEFILE NAME WORKDIR: writes the spec and the Makefile of one wiring.
generate() {
  python3 - "$@" "$layers" "$width" "$sleep_s" "$slots" "$seed" "$cpu_limit" <<'PY'
import random, sys
wiring, spec, makefile, name, workdir, layers, width, sleep_s, slots, seed, cpu_limit = sys.argv[1:]
layers, width, slots = int(layers), int(width), int(slots)
rnd = random.Random(int(seed))
tid = lambda l, t: f"l{l:02d}-t{t:02d}"
parents = {}
for l in range(layers):
    for t in range(width):
        if l == 0 or wiring == "none":
            parents[tid(l, t)] = []
        elif wiring == "full":
            parents[tid(l, t)] = [tid(l - 1, p) for p in range(width)]
        else:
            parents[tid(l, t)] = sorted(tid(l - 1, p) for p in rnd.sample(range(width), rnd.choice([1, 2])))
with open(spec, "w") as f:
    f.write(f"name: {name}\nworkdir: \"{workdir}\"\nconfig:\n  scheduler: {{max-process: {slots}}}\n")
    if cpu_limit:
        f.write(f"  utilization-limit: {{cpu: {cpu_limit}}}\n")
    f.write("groups:\n  - name: dag\n    memory: 1MiB\n    cpus: 1\n    tasks:\n")
    for l in range(layers):
        for t in range(width):
            f.write(f"      - id: {tid(l, t)}\n        command: [sleep, \"{sleep_s}\"]\n")
            if l > 0 and wiring != "none":
                after = f"\"l{l - 1:02d}-*\"" if wiring == "full" else "[" + ", ".join(parents[tid(l, t)]) + "]"
                f.write(f"        after: {after}\n")
with open(makefile, "w") as f:
    ids = list(parents)
    f.write(".PHONY: all " + " ".join(ids) + "\n")
    f.write("all: " + " ".join(ids) + "\n")  # every task: with sparse wiring not all lead to the last layer
    for i in ids:
        f.write(f"{i}: {' '.join(parents[i])}\n\t@sleep {sleep_s}\n")
PY
}

# makespan REPORT: prints "makespan_s attempt_median_s gap_median_s succeeded"
makespan() {
  python3 - "$1" <<'PY'
import json, statistics, sys
from datetime import datetime
r = json.load(open(sys.argv[1]))
ts = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
attempts = [a for g in r["groups"] for t in g["tasks"] for a in t["attempts"]]
ok = sum(1 for g in r["groups"] for t in g["tasks"] if t["status"] == "SUCCEEDED")
starts = sorted(ts(a["startedAt"]) for a in attempts)
ends = sorted(ts(a["finishedAt"]) for a in attempts)
lengths = [ts(a["finishedAt"]) - ts(a["startedAt"]) for a in attempts]
gaps = []
for s in starts[1:]:
    before = [e for e in ends if e <= s]
    if before:
        gaps.append(s - max(before))
print(f"{max(ends) - min(starts):.3f} {statistics.median(lengths):.4f} {statistics.median(gaps) if gaps else 0:.4f} {ok}")
PY
}

now() { python3 -c 'import time; print(f"{time.time():.6f}")'; }

# cpu_sample: prints "total idle" jiffies from /proc/stat (0 0 where there is none)
cpu_sample() { awk '/^cpu /{t=0; for(i=2;i<=NF;i++) t+=$i; print t, $5+$6; exit}' /proc/stat 2>/dev/null || echo "0 0"; }

# busy T0 I0 T1 I1: how busy the CPUs were between two samples (all processes, Berth's own included)
busy() { python3 -c "import sys; t0,i0,t1,i1=map(int,sys.argv[1:]); print(f'{1-(i1-i0)/max(1,t1-t0):.0%}')" "$@"; }

median() { python3 -c 'import statistics,sys; print(f"{statistics.median(float(x) for x in sys.argv[1:]):.3f}")' "$@"; }

# The launcher builds the jar when it is missing or older than the sources; do that untimed.
./berth --version >/dev/null

bound="$(python3 -c "print(f'{max($layers * $sleep_s, $layers * $width * $sleep_s / $slots):.3f}')")"
total="$((layers * width))"
echo "bench-dag: $layers layers x $width tasks of sleep $sleep_s, $slots at a time; lower bound ${bound}s; $runs runs"
echo "bench-dag: load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
floor_jar=bench/target/berth-benchmarks.jar
if [ -f "$floor_jar" ]; then
  echo "bench-dag: JVM floor (bench's SpawnFloor: $slots threads spawning the same $total sleeps, no scheduling) shown for 'none'"
fi
printf '%-8s %-6s %9s %9s %8s %8s %11s %9s %6s\n' wiring run berth_s overhead make_s jvm_s attempt_med gap_med busy

for wiring in ${BENCH_WIRINGS:-full sparse none}; do
  spans=(); makes=(); lens=(); gaps=(); jvms=()
  for i in $(seq "$runs"); do
    spec="$tmp/$wiring-$i.yaml"
    makefile="$tmp/$wiring-$i.mk"
    generate "$wiring" "$spec" "$makefile" "bench-dag-$wiring" "$tmp/out-$wiring-$i"
    read -r c0 i0 < <(cpu_sample)
    if ! ./berth run --no-progress "$spec" >"$tmp/log" 2>&1; then
      echo "bench-dag: berth run failed; its output:" >&2
      tail -n 40 "$tmp/log" >&2
      exit 1
    fi
    if grep -q "berth: building" "$tmp/log"; then
      echo "bench-dag: the launcher rebuilt berth inside a run (sources changed meanwhile); rerun" >&2
      exit 1
    fi
    read -r c1 i1 < <(cpu_sample)
    read -r span len gap ok < <(makespan "$tmp/out-$wiring-$i/report.json")
    if [ "$ok" != "$total" ]; then
      echo "bench-dag: only $ok of $total tasks succeeded" >&2
      exit 1
    fi
    t0="$(now)"
    make -s -j"$slots" -f "$makefile" all
    t1="$(now)"
    mk="$(python3 -c "print(f'{$t1 - $t0:.3f}')")"
    jvm="-"
    if [ "$wiring" = none ] && [ -f "$floor_jar" ]; then
      rate="$(java -XX:+UseSerialGC -cp "$floor_jar" dev.berth.bench.SpawnFloor "$tmp/floor-$i" "$total" "$slots" \
        sleep "$sleep_s")"
      jvm="$(python3 -c "print(f'{$total / $rate:.3f}')")"
      jvms+=("$jvm")
    fi
    over="$(python3 -c "print(f'{($span / $bound - 1) * 100:+.1f}%')")"
    printf '%-8s %-6s %9s %9s %8s %8s %11s %9s %6s\n' "$wiring" "$i" "$span" "$over" "$mk" "$jvm" "$len" "$gap" \
      "$(busy "$c0" "$i0" "$c1" "$i1")"
    spans+=("$span"); makes+=("$mk"); lens+=("$len"); gaps+=("$gap")
  done
  ms="$(median "${spans[@]}")"
  mm="$(median "${makes[@]}")"
  over="$(python3 -c "print(f'{($ms / $bound - 1) * 100:+.1f}%')")"
  mover="$(python3 -c "print(f'{($mm / $bound - 1) * 100:+.1f}%')")"
  mj="-"
  if [ "${#jvms[@]}" -gt 0 ]; then mj="$(median "${jvms[@]}")"; fi
  printf '%-8s %-6s %9s %9s %8s %8s %11s %9s\n' "$wiring" median "$ms" "$over" "$mm" "$mj" "$(median "${lens[@]}")" \
    "$(median "${gaps[@]}")"
  echo "bench-dag: $wiring: berth makespan ${ms}s (${over} vs bound ${bound}s), make -j$slots ${mm}s (${mover})"
done
echo "bench-dag: load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
