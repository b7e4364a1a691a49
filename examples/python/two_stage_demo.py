#!/usr/bin/env python3
"""A two-stage Berth task in pure Python: load a synthetic dataset, then fit a line to it.

Run by hand it loads, trains on "cpu" and prints the result as JSON:

    python3 examples/python/two_stage_demo.py

Under Berth it follows Berth's commands (see berth.task, in the repository's python/ folder). Two switches exist for tests and for
trying Berth's handling of failures: BERTH_DEMO_OOM_ONCE=1 makes the first train raise a fake
"CUDA out of memory" error, as PyTorch would, and BERTH_DEMO_FAIL=1 makes train raise a plain bug.
"""
import os
import random
import sys

try:
    from berth.task import run_task
except ImportError:  # the berth package is not installed: the repository's python/ folder
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python"))
    from berth.task import run_task


def load(ctx):
    seed = int(ctx.params.get("seed", "1"))
    rng = random.Random(seed)
    xs = [rng.uniform(-1, 1) for _ in range(2000)]
    ys = [3.0 * x + 2.0 + rng.gauss(0, 0.1) for x in xs]
    ctx.set_item("samples", len(xs))
    return {"xs": xs, "ys": ys, "trains": 0}


def train(state, device, ctx):
    state["trains"] += 1
    if os.environ.get("BERTH_DEMO_OOM_ONCE") == "1" and state["trains"] == 1:
        raise RuntimeError("CUDA out of memory. Tried to allocate 20.00 MiB (demo)")
    if os.environ.get("BERTH_DEMO_FAIL") == "1":
        raise ValueError("demo failure on purpose")
    xs, ys = state["xs"], state["ys"]
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    cov = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys))
    var = sum((x - mean_x) ** 2 for x in xs)
    slope = cov / var
    intercept = mean_y - slope * mean_x
    ctx.set_item("progress", {"fitted": True})
    return {"slope": round(slope, 3), "intercept": round(intercept, 3), "device": device, "trains": state["trains"]}


if __name__ == "__main__":
    run_task(load, train)
