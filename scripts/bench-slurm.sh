#!/usr/bin/env bash
# Slurm benchmark: submission and completion time of many tiny tasks, through Berth's Slurm executor
# (as one job array, and as single jobs) and through plain sbatch (a loop of single jobs, and one
# array).
#
# Each variant runs BENCH_TASKS (default 200) jobs of `true`, 1 CPU and 100 MiB each, BENCH_RUNS
# times (default 3), one variant after another within a round:
#
#   berth-array    `berth run --executor slurm` on a spec with one matrix task `i: [0..N-1]`: one
#                  `sbatch --array=0-(N-1)%K`, K = scheduler.max-process (BENCH_MAX_PROCESS, default 2)
#   berth-jobs     the same with `--set slurm.arrays=false`: one sbatch per task
#   sbatch-jobs    a bash loop of `sbatch --parsable --cpus-per-task=1 --mem=100M --wrap true`
#   sbatch-array   one `sbatch --array=0-(N-1)%K --cpus-per-task=1 --mem=100M --wrap true`
#
# and measures, for each:
#
#   submit       from the start of the command until the last job was submitted. For plain sbatch,
#                when the last sbatch call returned; for Berth, the modification time of the last
#                `berth-slurm-job.N` file (Berth writes it into the task folder right after sbatch
#                answered). Berth's figure includes its JVM start and reading the spec.
#   first        (Berth only) from the start of the command until the first job file: JVM start,
#                spec and set-up before the first sbatch.
#   wall         wall clock of the whole command: `berth run --no-progress` until it exits; for plain
#                sbatch, submission plus polling `squeue` every 0.1 s until none of the jobs is left.
#   sacct span   from the first job's Submit to the last job's End as sacct records them (whole
#                seconds), i.e. the time the jobs spent in Slurm.
#
# Prints each run's figures, with how busy this machine's CPUs were and how many CPU-seconds other
# jobs held on the cluster meanwhile (from sacct), then min / median / max of each over the runs.
# Berth is built beforehand and warmed up once (not timed). All jobs of a variant are checked to
# have COMPLETED in sacct.
#
# Run it on an otherwise idle cluster and machine: other jobs in the queue share the nodes, and on a
# small cluster other load slows slurmctld, slurmd and Berth alike. Before each variant the script
# waits up to BENCH_QUEUE_WAIT seconds (default 120) for the queue to be empty, then up to
# BENCH_IDLE_WAIT seconds (default 60) for this machine's CPUs to be under 20% busy for 3 s, and
# warns when either did not happen.
#
# Usage: scripts/bench-slurm.sh              (from any directory; about 13 minutes on a 2-core node)
#        BENCH_RUNS=5 BENCH_TASKS=500 BENCH_MAX_PROCESS=4 scripts/bench-slurm.sh
#        BENCH_VARIANTS="berth-array sbatch-array" scripts/bench-slurm.sh
# BENCH_BERTH replaces ./berth, e.g. BENCH_BERTH="java -XX:+UseSerialGC -jar saved/berth.jar".
# Needs: a Slurm cluster (sbatch, squeue, sacct with accounting), java, mvn (for the build), python3.
# Task folders go in a temporary folder (under TMPDIR when set): on a cluster of more than one node,
# point TMPDIR at a folder that every node mounts at the same path.
set -euo pipefail
export LC_ALL=C   # decimal points in EPOCHREALTIME and printf

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

runs="${BENCH_RUNS:-3}"
tasks="${BENCH_TASKS:-200}"
max_process="${BENCH_MAX_PROCESS:-2}"
queue_wait="${BENCH_QUEUE_WAIT:-120}"
idle_wait="${BENCH_IDLE_WAIT:-60}"
read -r -a variants <<<"${BENCH_VARIANTS:-berth-array berth-jobs sbatch-jobs sbatch-array}"
read -r -a berth <<<"${BENCH_BERTH:-./berth}"

for tool in sbatch squeue sacct java python3 seq; do
  command -v "$tool" >/dev/null || { echo "bench-slurm: $tool not found" >&2; exit 2; }
done
for v in "${variants[@]}"; do
  case "$v" in
    berth-array | berth-jobs | sbatch-jobs | sbatch-array) ;;
    *) echo "bench-slurm: unknown variant $v (berth-array, berth-jobs, sbatch-jobs, sbatch-array)" >&2; exit 2 ;;
  esac
done

tmp="$(mktemp -d -t berth-bench-slurm.XXXXXX)"
# A tag unique to this invocation: every job's name starts with "<tag>-<variant>-<run>.", so the
# script finds its own jobs in squeue and sacct, whatever else runs on the cluster.
tag="bs$$"
cleanup() {
  # Jobs of an interrupted run: cancel only this invocation's (by the job names it gave them).
  local names
  names="$(squeue -h -o '%j' 2>/dev/null | grep "^$tag-" | sort -u | paste -sd, -)" || true
  if [ -n "$names" ]; then scancel --name="$names" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

now() { echo "$EPOCHREALTIME"; }

# spec FILE NAME WORKDIR COUNT: one task with a matrix of COUNT values, each `true`.
spec() {
  {
    echo "name: $2"
    echo "workdir: \"$3\""
    echo "config:"
    echo "  scheduler: {max-process: $max_process}"
    echo "groups:"
    echo "  - name: bench"
    echo "    tasks:"
    echo "      - id: \"t-{i}\""
    echo "        matrix: {i: [$(seq -s ', ' 0 $(($4 - 1)))]}"
    echo "        command: [\"true\"]"
    echo "        cpus: 1"
    echo "        memory: 100MiB"
  } >"$1"
}

# our_jobs NAME...: the job ids in squeue (pending or running) named NAME, one line each.
our_jobs() {
  local IFS=,
  squeue -h -n "$*" -o '%i'
}

# Waits until the queue is empty (other users' jobs too), or warns after queue_wait seconds.
wait_for_empty_queue() {
  local deadline=$((SECONDS + queue_wait))
  while [ -n "$(squeue -h -o '%i')" ]; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "bench-slurm: warning: $(squeue -h -o '%i' | wc -l) other jobs in the queue; figures will be high" >&2
      return 0
    fi
    sleep 1
  done
}

# Waits until the CPUs have been under 20% busy for 3 s in a row, for at most idle_wait seconds,
# then warns when they were not (Linux only; elsewhere it does nothing).
wait_for_idle() {
  [ -r /proc/stat ] || return 0
  python3 - "$idle_wait" <<'PY' >&2
import sys
import time


def ticks():
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return sum(values), values[3] + values[4]


deadline, quiet, busy = time.monotonic() + float(sys.argv[1]), 0, 1.0
while quiet < 3 and time.monotonic() < deadline:
    total0, idle0 = ticks()
    time.sleep(1)
    total1, idle1 = ticks()
    busy = 1 - (idle1 - idle0) / max(1, total1 - total0)
    quiet = quiet + 1 if busy < 0.2 else 0
if quiet < 3:
    print(f"bench-slurm: warning: the CPUs were {busy:.0%} busy before this run; figures will be high and noisy")
PY
}

# cpu_ticks: "total,idle" CPU ticks since boot (Linux; "0,0" elsewhere), for the busy share of a run.
cpu_ticks() {
  if [ -r /proc/stat ]; then
    awk 'NR == 1 { t = 0; for (i = 2; i <= NF; i++) t += $i; print t "," ($5 + $6); exit }' /proc/stat
  else
    echo "0,0"
  fi
}

# berth_run VARIANT RUN NAME: one Berth run; prints "t0 t_end first_submit last_submit".
berth_run() {
  local variant="$1" run="$2" name="$3" out="$tmp/$3" log="$tmp/$3.log" flags=() t0 t1
  if [ "$variant" = berth-jobs ]; then flags=(--set slurm.arrays=false); fi
  spec "$tmp/$name.yaml" "$name" "$out" "$tasks"
  t0="$(now)"
  if ! "${berth[@]}" run --no-progress --executor slurm "${flags[@]}" "$tmp/$name.yaml" >"$log" 2>&1; then
    echo "bench-slurm: berth run failed ($variant, run $run); its output:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  t1="$(now)"
  if grep -q "berth: building" "$log"; then
    echo "bench-slurm: the launcher rebuilt berth inside a timed run (sources changed meanwhile); rerun" >&2
    exit 1
  fi
  local files
  files="$(find "$out" -name 'berth-slurm-job.*' -printf '%T@\n' | sort -n)"
  if [ "$(grep -c . <<<"$files")" -ne "$tasks" ]; then
    echo "bench-slurm: expected $tasks job-id files under $out, found $(grep -c . <<<"$files")" >&2
    exit 1
  fi
  echo "$t0 $t1 $(head -n 1 <<<"$files") $(tail -n 1 <<<"$files")"
}

# sbatch_run VARIANT NAME: plain sbatch of the same jobs; prints "t0 t_end - last_submit".
sbatch_run() {
  local variant="$1" name="$2" dir="$tmp/$2" t0 t_sub t1
  mkdir -p "$dir"
  local opts=(--parsable --job-name="$name.x" --chdir="$dir" --output="$dir/slurm-%j.out"
    --cpus-per-task=1 --mem=100M)
  t0="$(now)"
  if [ "$variant" = sbatch-jobs ]; then
    for _ in $(seq "$tasks"); do sbatch "${opts[@]}" --wrap true >/dev/null; done
  else
    sbatch "${opts[@]}" --array="0-$((tasks - 1))%$max_process" --wrap true >/dev/null
  fi
  t_sub="$(now)"
  while [ -n "$(our_jobs "$name.x")" ]; do sleep 0.1; done
  t1="$(now)"
  echo "$t0 $t1 - $t_sub"
}

# sacct_rows NAME START OTHERS: waits until sacct has recorded the end of all the run's jobs (it
# lags behind squeue by seconds), then prints their "Submit|Start|End|State" rows, and writes the
# "Start|End|AllocCPUS" rows of everyone else's jobs since START into the file OTHERS.
sacct_rows() {
  local name="$1" start="$2" rows deadline=$((SECONDS + 120))
  while :; do
    # The name goes last: it may hold "|" itself (Berth's array names do).
    rows="$(sacct -X -n -P -S "$start" -E now --format=Submit,Start,End,State,JobName%200 \
      | awk -F'|' -v p="$name." '$3 != "Unknown" && index($0, "|" $4 "|" p) == length($1 $2 $3) + 3 {
          print $1 "|" $2 "|" $3 "|" $4 }')"
    if [ "$(grep -c . <<<"$rows")" -ge "$tasks" ]; then break; fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "bench-slurm: warning: sacct shows only $(grep -c . <<<"$rows") of $tasks ended jobs of $name" >&2
      break
    fi
    sleep 1
  done
  echo "$rows"
  sacct -X -n -P -S "$start" -E now --format=Start,End,AllocCPUS,JobName%200 \
    | awk -F'|' -v p="$name." 'index($0, "|" $3 "|" p) != length($1 $2) + 2 { print $1 "|" $2 "|" $3 }' >"$3"
}

echo "building berth (not timed)..." >&2
if [ -z "${BENCH_BERTH:-}" ]; then
  mvn -q -B -Dmaven.test.skip=true -pl cli -am package >&2
fi
echo "warm-up run (not timed)..." >&2
spec "$tmp/warmup.yaml" "$tag-warmup" "$tmp/warmup-out" 4
if ! "${berth[@]}" run --no-progress --executor slurm "$tmp/warmup.yaml" >"$tmp/warmup.log" 2>&1; then
  echo "bench-slurm: the warm-up run failed; its output:" >&2
  tail -n 40 "$tmp/warmup.log" >&2
  exit 1
fi

results="$tmp/results.txt"
: >"$results"
for run in $(seq "$runs"); do
  for variant in "${variants[@]}"; do
    echo "run $run/$runs: $variant..." >&2
    wait_for_empty_queue
    wait_for_idle
    name="$tag-$variant-$run"
    start="$(date +%Y-%m-%dT%H:%M:%S)"
    cpu0="$(cpu_ticks)"
    case "$variant" in
      berth-*) times="$(berth_run "$variant" "$run" "$name")" ;;
      *) times="$(sbatch_run "$variant" "$name")" ;;
    esac
    cpu1="$(cpu_ticks)"
    sacct_rows "$name" "$start" "$tmp/$name.others" >"$tmp/$name.sacct"
    echo "$variant $run $times $tmp/$name.sacct $cpu0 $cpu1 $tmp/$name.others" >>"$results"
  done
done

python3 - "$results" "$tasks" "$max_process" "$runs" "${variants[@]}" <<'PY'
import statistics
import sys
from datetime import datetime

results, tasks, max_process, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
order = sys.argv[5:]


def epoch(text):
    return datetime.fromisoformat(text).timestamp()  # sacct prints local time, without a zone


rows = {v: {"submit": [], "first": [], "wall": [], "sacct": []} for v in order}
problems = []
per_run = []
for line in open(results, encoding="utf-8"):
    variant, run, t0, t1, first, last, sacct_file, cpu0, cpu1, others_file = line.split()
    t0, t1 = float(t0), float(t1)
    (total0, idle0), (total1, idle1) = [map(int, c.split(",")) for c in (cpu0, cpu1)]
    busy = 1 - (idle1 - idle0) / (total1 - total0) if total1 > total0 else float("nan")
    r = rows[variant]
    r["wall"].append(t1 - t0)
    r["submit"].append(float(last) - t0)
    if first != "-":
        r["first"].append(float(first) - t0)
    jobs = [l.split("|") for l in open(sacct_file, encoding="utf-8").read().split("\n") if l]
    bad = [j for j in jobs if j[3] != "COMPLETED"]
    if len(jobs) != tasks or bad:
        problems.append(f"{variant} run {run}: sacct shows {len(jobs)} jobs, {len(bad)} not COMPLETED")
    if jobs:
        r["sacct"].append(max(epoch(j[2]) for j in jobs) - min(epoch(j[0]) for j in jobs))
    # CPU-seconds that other jobs held on the cluster while this run was on the wall clock.
    other = 0.0
    for o in (l.split("|") for l in open(others_file, encoding="utf-8").read().split("\n") if l):
        if o[0] in ("Unknown", "None") or not o[2].isdigit():
            continue
        o_start = epoch(o[0])
        o_end = t1 if o[1] in ("Unknown", "None") else epoch(o[1])
        other += max(0.0, min(o_end, t1) - max(o_start, t0)) * int(o[2])
    if other >= 1:
        problems.append(f"{variant} run {run}: other jobs held {other:.0f} CPU-seconds of the cluster during the run")
    per_run.append((variant, run, r["submit"][-1], r["first"][-1] if first != "-" else None, r["wall"][-1],
                    r["sacct"][-1] if jobs else None, busy, other))

num = lambda v, f="{:.2f}": "" if v is None else f.format(v)
print("each run: variant, run, submit, first, wall, sacct span (s), this machine's CPUs busy during the run,")
print("CPU-seconds of other jobs on the cluster during the run")
for v, run, submit, first, wall, span, busy, other in per_run:
    print(f"  {v:<14}{run:>3}{num(submit):>8}{num(first):>8}{num(wall):>8}{num(span, '{:.0f}'):>6}{busy:>6.0%}"
          f"{other:>7.0f}")
print()
print(f"{tasks} jobs of `true` (1 CPU, 100 MiB each), arrays limited to %{max_process}; seconds, min / median / max"
      f" of {runs} runs")
fmt = "{:<14}{:>22}{:>22}{:>22}{:>22}"
print(fmt.format("variant", "submit", "first (berth)", "wall", "sacct span"))


def cell(values):
    if not values:
        return ""
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


for v in order:
    r = rows[v]
    print(fmt.format(v, cell(r["submit"]), cell(r["first"]), cell(r["wall"]), cell(r["sacct"])))
print("submit: command start to the last job submitted; first: command start to Berth's first job submitted;")
print("wall: the whole command (plain sbatch: until squeue lists none of the jobs, polled every 0.1 s);")
print("sacct span: first Submit to last End as sacct records them (whole seconds); busy: includes Slurm's and")
print("the jobs' own work, so compare it between runs of one variant")
for p in problems:
    print("warning: " + p)
PY
