#!/usr/bin/env bash
# Placement benchmark: a sweep of compute-bound trainings on two simulated GPUs, under one placement
# policy after another (default: best-fit, then spread), BENCH_RUNS times each (default 2).
#
# Each of BENCH_TASKS tasks (default 12, 6 GiB of GPU memory each, 4 at a time) does 20 steps of work.
# A step takes 0.05 s times the number of tasks sharing its device at that moment, as a step of
# compute-bound training does on a shared GPU: alone a task takes 1 s. The tasks count each other
# through files in a folder per device. Prints each run's makespan from report.json and the tasks per
# device.
#
# Usage: scripts/bench-spread.sh                 (from any directory)
#        BENCH_POLICIES="best-fit spread most-free" BENCH_RUNS=3 scripts/bench-spread.sh
# Needs: java, mvn (for the build), python3.
set -euo pipefail
export LC_ALL=C

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${BENCH_RUNS:-2}"
tasks="${BENCH_TASKS:-12}"
policies="${BENCH_POLICIES:-best-fit spread}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export BERTH_HOST_DIR="$work/host"

cat > "$work/train.py" <<'PY'
import os, sys, time, pathlib
share = pathlib.Path(sys.argv[1]) / os.environ.get("BERTH_DEVICE", "cpu")
share.mkdir(parents=True, exist_ok=True)
me = share / str(os.getpid())
me.touch()
try:
    for _ in range(20):
        time.sleep(0.05 * max(1, len(list(share.iterdir()))))
finally:
    me.unlink()
pathlib.Path("result.json").write_text('{"device": "%s"}' % os.environ.get("BERTH_DEVICE"))
PY

./berth --version >/dev/null   # builds once, outside the timed runs
for policy in $policies; do
  for run in $(seq "$runs"); do
    spec="$work/$policy-$run.yaml"
    cat > "$spec" <<YAML
name: spread-$policy-$run
workdir: $work/out/$policy-$run
gpus: "sim:2x24GiB"
config:
  scheduler: {max-process: 4, interval: 100ms, placement: $policy}
  utilization-limit: {cpu: 1.0, cuda-memory: 1.0}
  remain-limit: {memory: 1MiB, cuda-memory: 0}
groups:
  - name: sweep
    memory: 10MiB
    cpus: 0
    gpu-memory: 6GiB
    tasks:
      - id: "fit-{i}"
        matrix: {i: [$(seq -s, 1 "$tasks" | sed 's/,/, /g')]}
        command: [python3, "$work/train.py", "$work/share-$policy-$run"]
YAML
    ./berth run --no-progress "$spec" >/dev/null
    python3 - "$work/out/$policy-$run/report.json" "$policy" <<'PY'
import json, sys, collections
r = json.load(open(sys.argv[1]))
attempts = [a for g in r["groups"] for t in g["tasks"] for a in t["attempts"]]
first = min(a["startedAt"] for a in attempts); last = max(a["finishedAt"] for a in attempts)
from datetime import datetime
span = (datetime.fromisoformat(last.replace("Z", "+00:00")) - datetime.fromisoformat(first.replace("Z", "+00:00"))).total_seconds()
devices = collections.Counter(a.get("device") for a in attempts)
print(f"{sys.argv[2]:>10}  makespan {span:6.2f} s  per device {dict(sorted(devices.items()))}")
PY
  done
done
