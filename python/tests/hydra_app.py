"""A Hydra app's task function, behind a decorator as ``@hydra.main`` puts it (functools.wraps)."""

import copy
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


class SweepLoader:
    """Hydra's config loader, for the sweep configs: the base config with a job's overrides. It travels
    to the jobs' processes inside the HydraContext, so it lives here, beside the app."""

    def load_sweep_config(self, config, overrides):
        from omegaconf import OmegaConf
        sweep = OmegaConf.create(copy.deepcopy(dict(config)))
        for override in overrides:
            key, value = override.split("=", 1)
            sweep[key] = float(value) if "." in value else int(value)
        sweep["hydra"]["overrides"] = {"task": list(overrides)}
        return sweep
