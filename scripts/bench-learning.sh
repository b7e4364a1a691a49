#!/usr/bin/env bash
# End-to-end benchmark of learned requests (docs/learning.md), with the real ./berth.
#
# 1. Over-declared: 24 tasks of one template declare `memory: 4GiB` and use about 200 MiB
#    (bench/learning/alloc.py: a touched bytearray held for ~1 s), `cpus: 0`, on a host whose
#    admission allows BENCH_ALLOW (default 8GiB) in total: remain-limit.memory is set to what
#    /proc/meminfo calls available minus that, and utilization-limit.memory to 1. Run with
#    scheduler.learn-memory off, then on. Prints the in-run makespan of each (report.json's
#    startedAt to finishedAt, no JVM start), their ratio (target <= 0.5), the host memory wasted
#    (reserved x wall against peak x wall, from report.json's efficiency) and its reduction, and
#    the out-of-memory endings (target none).
# 2. Sweep: 24 tasks `sweep-{bs}-{rep}`, bs in 32, 64, 128, 256 (the memory grows 8x: 50 to 400
#    MiB), rep 1 to 6, declaring 4 GiB, learning on. Prints the out-of-memory rate over all attempts
#    (target < 1%). Only a reservation that is enforced can run out: when this Berth knows
#    `scheduler.enforce-memory`, the sweep sets it; otherwise the rate is reported as not enforced.
#
# Learning needs measured peaks: a Berth whose runtime measures attempts (cgroups or sampling). With
# none, both runs of part 1 reserve what they declare and the script says so.
#
# Usage: scripts/bench-learning.sh        (from any directory; Linux, for /proc/meminfo)
#        BENCH_ALLOW=6GiB BENCH_TASKS=48 scripts/bench-learning.sh
# Needs: java, mvn (for the build), python3.
set -euo pipefail
export LC_ALL=C

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

allow="${BENCH_ALLOW:-8GiB}"
tasks="${BENCH_TASKS:-24}"
read -r -a berth <<<"${BENCH_BERTH:-./berth}"

for tool in java mvn python3; do
  command -v "$tool" >/dev/null || { echo "bench-learning: $tool not found" >&2; exit 2; }
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/berth-bench-learning.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
alloc="$root/bench/learning/alloc.py"

"${berth[@]}" config --defaults >/dev/null # builds once, outside any timed run
enforce=""
if "${berth[@]}" config --defaults 2>/dev/null | grep -q "enforce-memory"; then
  enforce=", enforce-memory: true"
fi

# remain: what must stay free so that at most $allow can be admitted, from available memory now.
remain_bytes() {
  python3 - "$allow" <<'EOF'
import re, sys
units = {"": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "KB": 10**3, "MB": 10**6, "GB": 10**9}
m = re.fullmatch(r"([0-9.]+)\s*([KMG]i?B)?", sys.argv[1])
allow = int(float(m.group(1)) * units[m.group(2) or ""])
avail = next(int(l.split()[1]) * 1024 for l in open("/proc/meminfo") if l.startswith("MemAvailable:"))
if avail < allow:
    sys.exit(f"bench-learning: only {avail >> 20} MiB available, less than BENCH_ALLOW")
print(avail - allow)
EOF
}

# spec FILE NAME LEARN KIND: KIND over (24 x 200 MiB) or sweep (bs x rep).
spec() {
  local remain
  remain="$(remain_bytes)"
  {
    echo "name: $2"
    echo "workdir: \"$tmp/$2\""
    echo "config:"
    local extra=""
    if [ "$4" = sweep ]; then extra="$enforce"; fi
    echo "  scheduler: {max-process: $tasks, learn-memory: $3, interval: 200ms$extra}"
    echo "  utilization-limit: {cpu: 1.0, memory: 1.0}"
    echo "  remain-limit: {memory: $remain}"
    echo "groups:"
    echo "  - name: bench"
    echo "    memory: 4GiB"
    echo "    cpus: 0"
    echo "    tasks:"
    if [ "$4" = over ]; then
      echo "      - id: \"job-{i}\""
      echo "        matrix: {i: [$(seq -s, 1 "$tasks")]}"
      echo "        command: [python3, \"$alloc\", \"200\", \"1\"]"
    else
      echo "      - id: \"sweep-{bs}-{rep}\""
      echo "        matrix: {bs: [32, 64, 128, 256], rep: [1, 2, 3, 4, 5, 6]}"
      echo "        command: [python3, \"$alloc\", \"{bs}\", \"1\"]"
      echo "        retries: 0"
    fi
  } >"$1"
}

# run NAME LEARN KIND: runs the spec, prints "makespan_s wasted_share ooms attempts learned_launches".
run() {
  spec "$tmp/$1.yaml" "$1" "$2" "$3"
  if ! "${berth[@]}" run --no-progress "$tmp/$1.yaml" >"$tmp/$1.log" 2>&1; then
    if ! [ -f "$tmp/$1/report.json" ]; then
      echo "bench-learning: berth run $1 failed; its output:" >&2
      tail -n 40 "$tmp/$1.log" >&2
      exit 1
    fi
  fi
  python3 - "$tmp/$1/report.json" "$tmp/$1.log" <<'EOF'
import json, sys
from datetime import datetime
r = json.load(open(sys.argv[1]))
t = lambda s: datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ")
makespan = (t(r["finishedAt"]) - t(r["startedAt"])).total_seconds()
mem = r["efficiency"]["memory"]
wasted = 1 - mem["used"] / mem["reserved"] if mem["reserved"] > 0 else float("nan")
attempts = [a for g in r["groups"] for task in g["tasks"] for a in task["attempts"]]
ooms = sum(1 for a in attempts if a["outcome"] == "HOST_OOM")
learned = sum(1 for line in open(sys.argv[2]) if " learned from " in line)
print(f"{makespan:.2f} {wasted:.4f} {ooms} {len(attempts)} {r['efficiency']['measuredAttempts']} {learned}")
EOF
}

echo "bench-learning: $tasks tasks declaring 4 GiB, using ~200 MiB for ~1 s; admission allows $allow"
read -r off_make off_waste off_oom off_att off_meas _ <<<"$(run over-off off over)"
read -r on_make on_waste on_oom on_att on_meas on_learned <<<"$(run over-on on over)"
if [ "$on_meas" = 0 ]; then
  echo "bench-learning: no attempt was measured, so nothing can be learned (this Berth does not measure usage)"
fi
python3 - "$off_make" "$on_make" "$off_waste" "$on_waste" "$on_oom" "$on_att" "$on_learned" <<'EOF'
import sys
off, on, w_off, w_on = map(float, sys.argv[1:5])
print(f"  learning off: makespan {off:.2f} s, host memory wasted {w_off:.1%}")
print(f"  learning on:  makespan {on:.2f} s, host memory wasted {w_on:.1%}, "
      f"{sys.argv[5]} out-of-memory endings in {sys.argv[6]} attempts, learned-request notes: {sys.argv[7]}")
print(f"  makespan ratio on/off: {on / off:.2f} (target <= 0.5); waste reduced by {(w_off - w_on) * 100:.1f} points"
      f" ({(1 - w_on / w_off) if w_off else 0:.0%} of it)")
EOF

echo "bench-learning: sweep bs x rep (memory 50 to 400 MiB, 8x), declaring 4 GiB, learning on"
read -r s_make s_waste s_oom s_att s_meas s_learned <<<"$(run sweep-on on sweep)"
if [ -z "$enforce" ]; then
  echo "  reservations are not enforced by this Berth (no enforce-memory): a task cannot run out of them"
fi
python3 - "$s_make" "$s_oom" "$s_att" "$s_meas" "$s_waste" "$s_learned" <<'EOF'
import sys
make, ooms, att, meas = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
print(f"  makespan {make:.2f} s, {ooms} out-of-memory endings in {att} attempts ({ooms / att:.1%}, target < 1%),"
      f" {meas} attempts measured, host memory wasted {float(sys.argv[5]):.1%}, learned-request notes: {sys.argv[6]}")
EOF
