"""What a warm engine calls for ``berth.map`` and ``berth.submit``: one function call of a batch.

The batch (``functools.partial`` calls, pickled) is one file; each call task names it and its index,
and an engine unpickles a batch once, however many of its calls it runs.
"""

import os

from . import _payload

_batches = {}


def apply(payload, index):
    """Runs call ``index`` of the batch in ``payload``; its return value goes to return.pickle."""
    batch = _batches.get(payload)
    if batch is None:
        batch = _batches[payload] = _payload.load(payload)
    return _payload.call_and_keep(batch[int(index)], os.getcwd()) or None
