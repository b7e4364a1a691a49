"""Functions the tests run in Berth's engines and task processes: importable, as they must be."""

import os
import time


def square(x):
    return x * x


def fail_on_three(x):
    if x == 3:
        raise ValueError("three is not allowed")
    return x


def add(a, b=0):
    return {"sum": a + b, "engine": os.environ.get("BERTH_ENGINE")}


def sweep_job(index, seconds):
    """A Hydra-like job: sleeps on its device and says where and when it ran."""
    started = time.time()
    time.sleep(seconds)
    return {"index": index, "device": os.environ.get("BERTH_DEVICE"),
            "visible": os.environ.get("CUDA_VISIBLE_DEVICES"), "started": started, "ended": time.time()}


from berth.fedflow import Task  # noqa: E402 - the fedflow tasks below need it, the functions above do not


class Stamp(Task):
    """A fedflow task that says when it loaded and trained, and on which device."""

    def load(self):
        self.loaded = time.time()

    def train(self, device):
        time.sleep(0.2)
        return {"loaded": self.loaded, "ended": time.time(), "device": device}
