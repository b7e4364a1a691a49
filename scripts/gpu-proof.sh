#!/usr/bin/env bash
# The real-GPU proof: Berth on a Linux machine with an NVIDIA GPU, against the driver's own figures.
#
# Builds Berth when cli/target/berth.jar is missing (./mvnw -B -q -DskipTests package; else the
# existing build, which ./berth rebuilds when the sources are newer), then on one GPU (index
# GPU_PROOF_INDEX, default 0):
#   1. devices:  `berth devices` and `berth devices --json` (NVML found, names, UUIDs, total and
#                free memory) against nvidia-smi, whose driver version the table gives;
#   2. packing:  12 tasks that each allocate their gpu-memory minus a margin through the CUDA driver
#                API and hold it 4 s, sized so that 6 fit at once: peak concurrency, most reserved
#                against the device, each attempt's measured peak beside its reservation;
#   3. oom:      beside a foreign holder that leaves little free, a one-stage task and a two-stage
#                one need more than their reservation and get a real CUDA_ERROR_OUT_OF_MEMORY; each
#                must be classified GPU_OOM and retried bigger (the two-stage one as a second train
#                call of the same process), and succeed once the holder lets go;
#   4. foreign:  a process outside Berth holding half the free memory: `berth devices` shows its pid
#                as not Berth's, and two tasks that fit together on the empty device run one at a time;
#   5. learning: 12 tasks declaring a gpu-memory and using a quarter of it, 3 at a time: the later
#                ones reserve what was learned from the measured peaks.
# Each check prints PASS or FAIL with its figures; the end prints the table, also written as
# OUTDIR/table.md for docs/benchmarks.md. Exit 0 when every check passed, 1 when one failed, 2 when
# the machine lacks what the proof needs. Every size comes from the GPU's own memory (any card with
# 8 GiB free). Takes about 2 minutes after the build.
#
# Usage: scripts/gpu-proof.sh OUTDIR
#        GPU_PROOF_INDEX=1 scripts/gpu-proof.sh OUTDIR
# Needs: Linux, an NVIDIA driver (nvidia-smi, libcuda.so.1), java 17+, python3. OUTDIR gets every
# log, spec, report and JSON; the runs use a host ledger of their own under it.
# The scripts/gpu_proof/ tests run the same code against a stand-in driver (BERTH_PROOF_FAKE_CUDA).
set -euo pipefail
export LC_ALL=C

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 1 ] || { echo "usage: scripts/gpu-proof.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out="$(cd "$1" && pwd)"
cd "$root"

index="${GPU_PROOF_INDEX:-0}"
gpus="${GPU_PROOF_GPUS:-$index}" # what Berth's runs are given with --gpus
hold="$root/scripts/gpu_proof/cuda_hold.py"
read -r -a berth <<<"${GPU_PROOF_BERTH:-$root/berth}"
export PYTHONDONTWRITEBYTECODE=1
# Berth narrows each task's devices itself; the holder names its device in the order nvidia-smi uses.
unset CUDA_VISIBLE_DEVICES
export CUDA_DEVICE_ORDER=PCI_BUS_ID
export BERTH_HOST_DIR="$out/host"
mkdir -p "$BERTH_HOST_DIR" "$out/runs"
rm -rf "$out/checks" "$out/runs"/* "$out/table.md"

proof() { python3 -B "$root/scripts/gpu_proof/proof.py" "$@"; }
say() { echo "gpu-proof: $*"; }

for tool in nvidia-smi python3 java; do
  command -v "$tool" >/dev/null || { say "$tool not found" >&2; exit 2; }
done
if [ -z "${BERTH_PROOF_FAKE_CUDA:-}" ] && ! python3 -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
  say "libcuda.so.1 cannot be loaded: is the NVIDIA driver installed?" >&2
  exit 2
fi

holder_pid=""
sampler_pid=""
cleanup() {
  if [ -n "$holder_pid" ]; then kill -TERM "$holder_pid" 2>/dev/null || true; fi
  if [ -n "$sampler_pid" ]; then kill -TERM "$sampler_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# check NAME ARGS...: runs a check, unless its part already failed; one that cannot read its inputs is
# recorded as failed, with why.
check() {
  local name="$1"
  shift
  if [ -f "$out/checks/$name.json" ]; then return 0; fi
  if ! proof "$@" "$out" 2>"$out/check-$name.err"; then
    proof fail "$out" "$name" "the check could not read its inputs: $(tail -n 1 "$out/check-$name.err")"
  fi
}

# berth_run NAME: writes the part's spec and runs it to its end (a failed task is the check's business).
berth_run() {
  proof spec "$out" "$1" "$hold" >"$out/$1.yaml"
  timeout 240 "${berth[@]}" run --no-progress --gpus "$gpus" "$out/$1.yaml" >"$out/$1.log" 2>&1 || true
}

# start_holder NAME CHECK ARGS...: a process outside Berth that holds GPU memory until stop_holder;
# when it cannot, CHECK fails with its reason.
start_holder() {
  local name="$1" check="$2" ready="$out/$1-holder.json"
  shift 2
  rm -f "$ready"
  python3 -B "$hold" --device "$index" --until-signal --ready "$ready" "$@" >"$out/$name-holder.log" 2>&1 &
  holder_pid=$!
  for _ in $(seq 1 300); do
    if [ -f "$ready" ]; then
      sleep 1 # a probe interval or two, so that every reading sees it
      return 0
    fi
    kill -0 "$holder_pid" 2>/dev/null || break
    sleep 0.1
  done
  proof fail "$out" "$check" "the $name holder did not start: $(tail -n 1 "$out/$name-holder.log")"
  stop_holder
  return 1
}

stop_holder() {
  if [ -n "$holder_pid" ]; then
    kill -TERM "$holder_pid" 2>/dev/null || true
    wait "$holder_pid" 2>/dev/null || true
    holder_pid=""
  fi
}

started=$SECONDS
if [ ! -f cli/target/berth.jar ]; then
  say "building Berth (./mvnw -B -q -DskipTests package)"
  ./mvnw -B -q -DskipTests package >"$out/build.log" 2>&1 || { say "the build failed; see $out/build.log" >&2; exit 2; }
fi
"${berth[@]}" config --defaults >/dev/null # rebuilds a stale jar and prepares the launcher, outside the parts

say "GPU $index; writing to $out"
if ! nvidia-smi --query-gpu=index,uuid,name,memory.total,memory.free,driver_version --format=csv \
  >"$out/nvidia-smi.csv" 2>&1; then
  say "nvidia-smi failed: $(head -n 1 "$out/nvidia-smi.csv")" >&2
  exit 2
fi
if ! proof plan "$out/nvidia-smi.csv" "$index" "$out" >"$out/plan.sh"; then
  exit 2
fi
# shellcheck disable=SC1091
. "$out/plan.sh"
say "device total $((total >> 20)) MiB, free $((free >> 20)) MiB"

# 1. devices
devices_args=()
if [ -n "${GPU_PROOF_GPUS:-}" ]; then devices_args=(--gpus "$GPU_PROOF_GPUS"); fi
"${berth[@]}" devices ${devices_args[@]+"${devices_args[@]}"} >"$out/devices.txt" 2>&1 || true
"${berth[@]}" devices ${devices_args[@]+"${devices_args[@]}"} --json >"$out/devices.json" 2>"$out/devices.err" || true
check devices check-devices

# 2. packing, with nvidia-smi sampling the device's used memory beside it
nvidia-smi --query-gpu=index,memory.used --format=csv,noheader,nounits -i "$index" -lms 500 \
  >"$out/packing-smi.csv" 2>/dev/null &
sampler_pid=$!
berth_run packing
kill -TERM "$sampler_pid" 2>/dev/null || true
wait "$sampler_pid" 2>/dev/null || true
sampler_pid=""
check packing check-packing

# 3. oom: KIND runs beside a holder; once its task ran out of memory, the proof notes why the retry
# waits (the holder's memory is not free to Berth), then lets the holder go.
oom_part() {
  local kind="$1" log="$out/runs/$1/$1/$1/attempt-1.stderr.log" run_pid
  start_holder "$kind" oom --leave "$oom_leave" || return 0
  berth_run "$kind" &
  run_pid=$!
  for _ in $(seq 1 600); do
    if grep -q "out of memory" "$log" 2>/dev/null || ! kill -0 "$run_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  sleep 2 # the attempt ends, and Berth decides the retry
  "${berth[@]}" status "$out/runs/$kind" --json >"$out/$kind-status.json" 2>/dev/null || true
  stop_holder
  wait "$run_pid" || true
}
oom_part oom-one
oom_part oom-two
check oom check-oom

# 4. foreign
if start_holder foreign foreign --bytes "$foreign_hold"; then
  "${berth[@]}" devices ${devices_args[@]+"${devices_args[@]}"} >"$out/foreign-devices.txt" 2>&1 || true
  "${berth[@]}" devices ${devices_args[@]+"${devices_args[@]}"} --json >"$out/foreign-devices.json" 2>/dev/null || true
  berth_run foreign
  stop_holder
fi
check foreign check-foreign

# 5. learning
berth_run learning
check learning check-learning

say "done in $((SECONDS - started)) s"
echo
proof table "$out"
