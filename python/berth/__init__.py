"""Berth for Python: the task side of its protocol, fedflow's API, a client for scripts and notebooks.

- ``berth.task``: ``run_task(load, train)`` for two-stage task scripts (docs/protocol.md).
- ``berth.fedflow``: fedflow's ``Task``, ``TaskGroup`` and ``FedFlow``, run by Berth.
- ``berth.run(spec, **options)``, ``berth.map(fn, items, ...)``, ``berth.submit(fn, *args)``.
- ``hydra/launcher=berth``: a Hydra multirun as one Berth run (``pip install './python[hydra]'``).

The package talks to Berth only through the ``berth`` command and files; it finds the command in
``$BERTH``, a Berth checkout's ``./berth`` or the PATH. Standard library only; Python 3.8+.
"""

from ._command import BerthError, BerthNotFound, find_berth
from ._report import RunFailed, RunReport, TaskOutcome
from .client import Client, map, run, submit

__all__ = ["run", "map", "submit", "Client", "BerthError", "BerthNotFound", "RunFailed", "RunReport",
           "TaskOutcome", "find_berth"]
__version__ = "0.1.0"
