#!/usr/bin/env bash
# Builds the JMH benchmarks of the scheduling core and runs them, then the queued-task footprint.
#
# Usage: scripts/bench-core.sh                 all benchmarks, short default settings
#        scripts/bench-core.sh LargeQueue -f 3  any JMH arguments (benchmark regexp, -wi, -i, -f, -prof gc ...)
#        BENCH_TASKS=50000 scripts/bench-core.sh  footprint with another task count
# Needs: java, mvn, python3.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

jar=bench/target/berth-benchmarks.jar
tmp="$(mktemp -d "${TMPDIR:-/tmp}/berth-jmh.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

echo "building the benchmarks..." >&2
mvn -q -B -pl bench -am package -DskipTests >&2

java -jar "$jar" -rf json -rff "$tmp/jmh.json" "$@"

# Time per placed task: a pass's time divided by the tasks the scenario places per pass. In sample
# mode (-bm sample) the median is used, which a busy machine disturbs less than the mean.
python3 - "$tmp/jmh.json" <<'PY'
import json
import sys

placed = {"first-pass": 128, "refill-one": 1}
rows = []
for r in json.load(open(sys.argv[1], encoding="utf-8")):
    scenario = r.get("params", {}).get("scenario")
    if "LargeQueueBenchmark." in r["benchmark"] and scenario in placed:
        m = r["primaryMetric"]
        sample = r["mode"] == "sample"
        score = m["scorePercentiles"]["50.0"] if sample else m["score"]
        name = r["benchmark"].rsplit(".", 1)[1]
        cap = r["params"].get("maxProcess", "0")
        rows.append((name, scenario, cap, "p50" if sample else "mean", score, m["scoreUnit"], score / placed[scenario]))
if rows:
    print("\nLargeQueueBenchmark, 10,000 tasks: time per placed task (target < 20 us)")
    print(f"  {'benchmark':<15}{'scenario':<12}{'max-process':>12}{'per pass':>20}{'placed':>8}{'per placed':>14}")
    for name, scenario, cap, stat, score, unit, per in rows:
        u = unit.split("/")[0]
        print(f"  {name:<15}{scenario:<12}{cap:>12}{stat:>6}{score:>11.1f} {u}{placed[scenario]:>8}{per:>11.2f} {u}")
PY

echo
java -XX:+UseSerialGC -cp "$jar" dev.berth.bench.QueuedTaskFootprint "${BENCH_TASKS:-10000}"
