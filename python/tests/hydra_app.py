"""A Hydra app's task function, behind a decorator as ``@hydra.main`` puts it (functools.wraps)."""

import functools
import os
import time


def main_decorator(function):
    @functools.wraps(function)
    def decorated_main():
        raise AssertionError("the launcher must call the task function, not the decorated main")
    return decorated_main


@main_decorator
def train(cfg):
    if cfg["lr"] == 0.5:
        raise ValueError("lr 0.5 diverges")
    time.sleep(1)
    return {"lr": cfg["lr"], "seed": cfg["seed"], "device": os.environ.get("BERTH_DEVICE"), "cwd": os.getcwd()}
