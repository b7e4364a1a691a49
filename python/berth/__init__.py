"""Berth for Python: the task side of its protocol, fedflow's API, a client for scripts and notebooks.

- ``berth.task``: ``run_task(load, train)`` for two-stage task scripts (docs/protocol.md).
- ``berth.fedflow``: fedflow's ``Task``, ``TaskGroup`` and ``FedFlow``, run by Berth.
- ``berth.run(spec, **options)``, ``berth.map(fn, items, ...)``, ``berth.submit(fn, *args)``.
- ``hydra/launcher=berth``: a Hydra multirun as one Berth run (``pip install './python[hydra]'``).

The package talks to Berth only through the ``berth`` command and files; it finds the command in
``$BERTH``, a Berth checkout's ``./berth`` or the PATH. Standard library only; Python 3.8+.
"""

import importlib

__all__ = ["run", "map", "submit", "Client", "BerthError", "BerthNotFound", "RunFailed", "RunReport",
           "TaskOutcome", "find_berth"]
__version__ = "0.1.0"

#: the module of each name above: imported when the name is first used, so that a task's process,
#: which imports berth.task or berth._worker, does not import the client and its subprocess machinery
_HOMES = {"run": "client", "map": "client", "submit": "client", "Client": "client", "BerthError": "_command",
          "BerthNotFound": "_command", "find_berth": "_command", "RunFailed": "_report", "RunReport": "_report",
          "TaskOutcome": "_report"}


def __getattr__(name):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    value = getattr(importlib.import_module("." + home, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
