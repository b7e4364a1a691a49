#!/usr/bin/env bash
# Compiles the example's tasks against Berth's task API, then runs fedavg-java.yaml.
# Extra arguments go to `berth run`, e.g. ./run.sh --no-progress
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
jar=../../cli/target/berth.jar
if [ ! -f "$jar" ]; then
  ../../berth --version >/dev/null   # builds the berth jar, which holds the task API
fi
rm -rf classes
mkdir -p classes
javac -d classes -cp "$jar" src/fedavg/*.java
exec ../../berth run "$@" fedavg-java.yaml
