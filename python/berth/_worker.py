"""The process of a task the package made: ``python -m berth._worker KIND PAYLOAD``.

KIND is ``call`` (the payload is a callable, called once: a one-stage task), ``staged`` (the same
as a two-stage task: the payload is unpickled, and its imports done, in the load stage; it is called
in the train stage with ``CUDA_VISIBLE_DEVICES`` and ``BERTH_DEVICE`` naming the device Berth handed
over) or ``fedflow`` (the payload is a ``berth.fedflow.Task``: its ``load()`` and ``train(device)``).
The return value is pickled to ``return.pickle`` in the task's folder; a mapping (or what the
payload's ``berth_result(value)`` makes of it) is the task's result for the reports.
"""

import json
import os
import sys

from . import _payload
from ._payload import use_device
from .task import run_task


def _call(path):
    result = _payload.call_and_keep(_payload.load(path), os.getcwd())
    # result_of made it plain, so JSON can always express it
    _payload.replace_atomically("result.json", json.dumps(result, allow_nan=False).encode("utf-8"))
    return 0


def _staged(path):
    def load(ctx):
        return _payload.load(path)

    def train(payload, device, ctx):
        use_device(device)
        return _payload.call_and_keep(payload, ctx.workdir)

    run_task(load, train)


def _fedflow(path):
    def load(ctx):
        task = _payload.load(path)
        task._enter_process(ctx)
        task.load_numbers = ctx.attempt
        task.load()
        return task

    def train(task, device, ctx):
        task.train_numbers += 1
        task.device = device
        result = task.train(device)
        return result if isinstance(result, dict) else {}

    run_task(load, train)


def main(argv):
    if len(argv) != 2 or argv[0] not in ("call", "staged", "fedflow"):
        print("usage: python -m berth._worker call|staged|fedflow PAYLOAD", file=sys.stderr)
        return 2
    kind, path = argv
    if kind == "call":
        return _call(path)
    if kind == "staged":
        _staged(path)
    else:
        _fedflow(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
