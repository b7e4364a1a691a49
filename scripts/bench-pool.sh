#!/usr/bin/env bash
# Engine-pool benchmark: BENCH_TASKS (default 2000) calls of a tiny Python function in a pool of
# 2 warm engines, then the same calls as a process each, in one `berth run` (three groups, one after
# the other). Prints each group's rate, from report.json (first attempt start to last attempt end,
# so the JVM start and the spec's reading are left out), and their ratio.
#
# The engines are warm as in the peer kit's ipyparallel case, whose clock starts once its engines
# are up: a first group of 8 calls starts both engines (the interpreter, the helper's imports) and
# the pool's 2,000 are timed after it. The first group's time is printed too, as the engines' start.
#
# Settings (docs/pools.md, "Queued calls"): scheduler.cores 2 and max-process 32. The processes ask
# cpus: 1 each, so they run 2 at a time. The calls ask cpus: 0 (an engine, not its call, is the
# process that uses a core; the pool has 2), so up to 32 are in flight and each engine queues up to
# 16 (hwm: auto, the default, as the calls are short).
#
# BENCH_CPU_LIMIT (default 1.0: the CPU-utilization gate off, so other load on the machine slows
# Berth down but never stops it) sets utilization-limit.cpu. BENCH_BERTH replaces ./berth.
#
# Usage: scripts/bench-pool.sh                  (from any directory)
#        BENCH_TASKS=500 scripts/bench-pool.sh
# Needs: java, mvn (for the build), python3.
set -euo pipefail
export LC_ALL=C

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

tasks="${BENCH_TASKS:-2000}"
cpu_limit="${BENCH_CPU_LIMIT:-1.0}"
read -r -a berth <<<"${BENCH_BERTH:-./berth}"

for tool in java python3; do
  command -v "$tool" >/dev/null || { echo "bench-pool: $tool not found" >&2; exit 2; }
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/berth-bench-pool.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/tiny.py" <<'PY'
def square(i):
    return {"square": i * i}
PY

# spec FILE NAME COUNT: 8 calls that start the engines, COUNT calls in the pool, then COUNT calls as
# processes, 2 at a time (see above).
spec() {
  local values
  values="$(python3 -c "print(', '.join(str(i) for i in range($3)))")"
  cat >"$1" <<YAML
name: $2
workdir: "$tmp/$2"
config:
  scheduler: {max-process: 32, cores: 2}
  utilization-limit: {cpu: $cpu_limit}
pools:
  two: {size: 2}
groups:
  - name: engines-start
    memory: 16MiB
    cpus: 0
    tasks:
      - {id: 'start-{i}', call: 'tiny:square', pool: two, matrix: {i: [0, 1, 2, 3, 4, 5, 6, 7]}}
  - name: pool
    memory: 16MiB
    cpus: 0
    tasks:
      - {id: 'call-{i}', call: 'tiny:square', pool: two, matrix: {i: [$values]}}
  - name: processes
    memory: 16MiB
    cpus: 1
    tasks:
      - {id: 'proc-{i}', call: 'tiny:square', matrix: {i: [$values]}}
YAML
}

# Build and warm up on a small spec of the same shape, so the timed run neither builds nor waits.
spec "$tmp/warm-up.yaml" warm-up 4
"${berth[@]}" run --no-progress "$tmp/warm-up.yaml" >/dev/null 2>&1 || true
spec "$tmp/bench.yaml" bench-pool "$tasks"
if ! "${berth[@]}" run --no-progress "$tmp/bench.yaml" >"$tmp/log" 2>&1; then
  echo "bench-pool: berth run failed; its output:" >&2
  tail -n 40 "$tmp/log" >&2
  exit 1
fi

python3 - "$tmp/bench-pool/report.json" "$tasks" <<'PY'
import json, sys
from datetime import datetime

def at(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()

report = json.load(open(sys.argv[1]))
rates = {}
for group in report["groups"]:
    attempts = [t["attempts"][-1] for t in group["tasks"]]
    start = min(at(a["startedAt"]) for a in attempts)
    end = max(at(a["finishedAt"]) for a in attempts)
    engines = sorted({a.get("clusterJob") or "-" for a in attempts})
    rates[group["name"]] = len(attempts) / (end - start)
    print(f"{group['name']:13} {len(attempts)} calls in {end - start:7.2f} s: {rates[group['name']]:8.1f} tasks/s"
          f"  (engines: {', '.join(engines) if len(engines) < 5 else len(engines)})")
print(f"pool / processes: {rates['pool'] / rates['processes']:.1f}x")
PY
