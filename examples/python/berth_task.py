"""The task side of Berth's protocol, for scripts that import ``berth_task``: it is ``berth.task``.

``pip install ./python`` installs the ``berth`` package; without it the package beside these
examples, in the repository's ``python/`` folder, is used, so ``./berth run examples/...`` works
from a checkout as it is.
"""
import os
import sys

try:
    from berth.task import TaskContext, is_out_of_memory, run_task
except ImportError:  # not installed: the repository's own copy
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python"))
    from berth.task import TaskContext, is_out_of_memory, run_task

__all__ = ["run_task", "TaskContext", "is_out_of_memory"]
