#!/usr/bin/env python3
"""A task of the real-process chaos soak (scripts/chaos-soak.sh): it keeps its own count of starts and finishes.

    chaos_task.py MODE SECONDS CHILD_SECONDS LOG_DIR

Every start appends a line to LOG_DIR/starts.log, every deliberate exit 0 appends one to
LOG_DIR/finishes.log, and every deliberate exit one to LOG_DIR/ends.log, each with one write of a file
opened for appending, so the soak can tell from outside Berth whether a task that finished ever
started again, and when a task's process ended. MODE is one of

    ok        forks children, sleeps, writes result.json, exits 0
    noresult  the same without result.json
    fail      exits 1
    oom       the first start of the task reports a CUDA out-of-memory error on stderr and exits 1,
              later ones behave as ok
    twostage  speaks Berth's load/train protocol (berth_task.py on PYTHONPATH); its first train call
              raises a CUDA out-of-memory error, the next one succeeds

Each start forks a background child and a setsid'd one, both sleeping CHILD_SECONDS: whatever a task
leaves running must end with it.
"""
import json
import os
import signal
import subprocess
import sys
import time


def _line(log_dir, name, mode):
    text = "\t".join([repr(time.time()), os.path.basename(os.environ.get("BERTH_RUN_DIR", "?")),
                      os.environ.get("BERTH_TASK_ID", "?"), os.environ.get("BERTH_ATTEMPT", "?"),
                      str(os.getpid()), mode, os.environ.get("BERTH_DEVICE", "")]) + "\n"
    fd = os.open(os.path.join(log_dir, name), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _children(child_seconds):
    devnull = subprocess.DEVNULL
    subprocess.Popen(["sleep", child_seconds], stdin=devnull, stdout=devnull, stderr=devnull)
    subprocess.Popen(["setsid", "sleep", child_seconds], stdin=devnull, stdout=devnull, stderr=devnull)


def _first_time(log_dir, what):
    """Whether this is the task's first pass through WHAT, across attempts and runs of the trial."""
    marker = os.path.join(log_dir, "marks", "%s-%s-%s" % (
        os.path.basename(os.environ.get("BERTH_RUN_DIR", "?")), os.environ.get("BERTH_TASK_ID", "?"), what))
    try:
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        return True
    except FileExistsError:
        return False


def _finish(log_dir, mode):
    # A signal between the finish line and the exit would make a finished task look interrupted to
    # Berth, and its next start a false re-run: the line and the exit happen with signals blocked.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    _line(log_dir, "finishes.log", mode)
    _exit(log_dir, mode, 0)


def _exit(log_dir, mode, code):
    """Ends the process, first noting when in ends.log: the soak cuts a reservation at its process's end."""
    sys.stdout.flush()
    sys.stderr.flush()
    _line(log_dir, "ends.log", mode)
    os._exit(code)


def main():
    mode, seconds, child_seconds, log_dir = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
    _line(log_dir, "starts.log", mode)
    _children(child_seconds)
    if mode == "twostage":
        two_stage(seconds, log_dir)
        return
    if mode == "oom" and _first_time(log_dir, "oom"):
        time.sleep(seconds / 2)
        sys.stderr.write("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (chaos soak)\n")
        sys.stderr.flush()
        _exit(log_dir, mode, 1)
    time.sleep(seconds)
    if mode == "fail":
        sys.stderr.write("ValueError: failing on purpose (chaos soak)\n")
        sys.stderr.flush()
        _exit(log_dir, mode, 1)
    if mode != "noresult":
        with open(os.path.join(os.environ.get("BERTH_TASK_DIR", "."), "result.json"), "w") as out:
            json.dump({"attempt": int(os.environ.get("BERTH_ATTEMPT", "0"))}, out)
    _finish(log_dir, mode)


def two_stage(seconds, log_dir):
    from berth_task import run_task

    trained = []

    def load(ctx):
        time.sleep(seconds / 3)
        return {}

    def train(state, device, ctx):
        if _first_time(log_dir, "train-oom"):
            raise RuntimeError("CUDA out of memory. Tried to allocate 20.00 MiB (chaos soak)")
        time.sleep(seconds / 2)
        trained.append(device)
        return {"device": device}

    try:
        run_task(load, train)
    except SystemExit as end:
        # Exit 0 after a successful train stage is the finish; any other end is not.
        if end.code in (0, None) and trained:
            _finish(log_dir, "twostage")
        _exit(log_dir, "twostage", end.code if isinstance(end.code, int) else 1)


if __name__ == "__main__":
    main()
