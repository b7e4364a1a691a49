"""Workload A's task for Berth's YAML run (workload_a.yaml): the same load and train, on berth.task."""
import time

from berth.task import run_task


def load(ctx):
    data = bytearray(200 << 20)
    time.sleep(0.5)
    return data


def train(data, device, ctx):
    time.sleep(1)
    return {"metric": len(data) / 1e6, "device": device}


run_task(load, train)
