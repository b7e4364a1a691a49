#!/usr/bin/env bash
# berth submit benchmark: the time from `berth submit` to the shell's prompt, and a loop of submits.
#
# In a private home and host folder (no real queue is touched): `berth --version` BENCH_SAMPLES times
# (the JVM's own start, for scale), the first submit (which starts the queue), BENCH_SAMPLES submits
# to a live queue, then a loop of BENCH_LOOP submits (default 100) and a `berth wait` for all of them.
# Each task is `true`. Prints the median and the 90th percentile of each, the loop's wall time, the
# time until the last of its tasks ended, and how many ran (each exactly once).
#
# Usage: scripts/bench-submit.sh           (from any directory)
#        BENCH_SAMPLES=20 BENCH_LOOP=500 scripts/bench-submit.sh
# Needs: java, mvn (for the build).
set -euo pipefail
export LC_ALL=C

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
berth="$root/berth"
samples="${BENCH_SAMPLES:-10}"
loop="${BENCH_LOOP:-100}"
work="$(mktemp -d)"
export HOME="$work/home" BERTH_HOST_DIR="$work/host"
mkdir -p "$HOME/.berth"
cleanup() {
  # the queue this benchmark started, by the pids its log names
  if [ -f "$HOME/.berth/queue/"*/queue.log ]; then
    for pid in $(sed -n 's/.*queue started (pid \([0-9]*\)).*/\1/p' "$HOME"/.berth/queue/*/queue.log); do
      kill "$pid" 2>/dev/null || true
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
cat > "$HOME/.berth/queue.yaml" <<'YAML'
gpus: none
config:
  scheduler: {default-memory: 1MiB, max-process: 20}
  remain-limit: {memory: 1MiB}
  utilization-limit: {cpu: 1.0, memory: 1.0}
  queue: {idle-exit: 2m}
YAML

"$berth" --version >/dev/null   # builds once, outside the timed runs

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
stats() { # median and p90 of the numbers on stdin
  sort -n | awk '{v[NR]=$1} END {m=v[int((NR+1)/2)]; p=v[int(NR*0.9+0.999)]; printf "median %d ms, p90 %d ms", m, p}'
}
# One command's wall time and CPU time (user + system, of the JVM and what it started and waited for), in ms.
timed() {
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null
  awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' "$work/time"
}

t0=$(now); "$berth" submit -- true >/dev/null; echo "first submit (starts the queue): $(ms "$t0" "$(now)") ms"
# Interleaved, so that both see the same load: the JVM's own start, then a submit to the live queue.
: >"$work/version"; : >"$work/submit"
for _ in $(seq "$samples"); do
  timed "$berth" --version >>"$work/version"
  timed "$berth" submit -- true >>"$work/submit"
done
for what in version submit; do
  label="berth --version:       "; [ "$what" = submit ] && label="submit to a live queue:"
  echo "$label wall $(cut -d' ' -f1 "$work/$what" | stats), CPU $(cut -d' ' -f2 "$work/$what" | stats) ($samples samples)"
done
"$berth" wait >/dev/null

first=""
t0=$(now)
for i in $(seq "$loop"); do
  id=$("$berth" submit --name "loop-$i" -- true)
  first="${first:-$id}"
done
t1=$(now)
"$berth" wait >/dev/null
t2=$(now)
echo "loop of $loop submits: $(ms "$t0" "$t1") ms ($(( $(ms "$t0" "$t1") / loop )) ms each); all ended $(ms "$t0" "$t2") ms after the first"
queue_dir=$(echo "$HOME"/.berth/queue/*)
pid=$(sed -n 's/.*queue started (pid \([0-9]*\)).*/\1/p' "$queue_dir/queue.log" | tail -1)
if [ -r "/proc/$pid/stat" ]; then
  ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  echo "the queue's process: $(( ticks * 1000 / $(getconf CLK_TCK) )) ms of CPU in all, for $(ls "$queue_dir/inbox" | grep -c json) tasks"
fi
echo "the queue's journal: $(du -ck "$queue_dir"/run/.berth/journal.db* | tail -1 | cut -f1) KiB"
ran=$("$berth" queue | awk -v f="$first" '$1 >= f && $2 == "succeeded"' | wc -l)
echo "tasks of the loop that succeeded: $ran of $loop"
