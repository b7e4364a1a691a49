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
from ._payload import result_of, use_device
from .task import run_task


def _call(path):
    payload = _payload.load(path)
    value = payload()
    _payload.dump_return(value, os.getcwd())
    result = result_of(payload, value)
    try:
        text = json.dumps(result, allow_nan=False)
    except (TypeError, ValueError):
        text = "{}"
    with open("result.json.tmp", "w", encoding="utf-8") as out:
        out.write(text)
    os.replace("result.json.tmp", "result.json")
    return 0


def _staged(path):
    def load(ctx):
        return _payload.load(path)

    def train(payload, device, ctx):
        use_device(device)
        value = payload()
        _payload.dump_return(value, ctx.workdir)
        return result_of(payload, value)

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
