"""Berth from a script or a notebook: ``run`` a spec, ``map`` a function, ``submit`` calls.

``map`` and ``submit`` run importable functions (a module's, or one defined in the script that calls
them) as call tasks in warm engines of a Berth pool (docs/pools.md): the interpreter and the
function's imports start once per engine, and each call is admitted like any task, with its
``memory``, ``cpus`` and ``gpu_memory`` reserved while it runs. Arguments and return values travel
by pickling. Berth's lines are shown as they come, in a terminal and in a notebook.
"""

import builtins
import concurrent.futures
import functools
import json
import os
import re
import shutil
import sys
import tempfile
import threading

from . import _command, _payload
from ._report import RunFailed, RunReport
from ._run import berth_run, nest, run_spec, spec_keys

__all__ = ["run", "map", "submit", "Client", "Results"]

RUN_OPTIONS = ("workdir", "gpus", "fresh", "set", "config_file", "host_ledger", "berth", "echo", "check")


class Results(dict):
    """A run's results by task id (each task's result.json), with the run's ``report``."""

    def __init__(self, report):
        super().__init__(report.results())
        self.report = report


def run(spec_or_path, **options):
    """Runs a spec (a file, or a mapping as the YAML would be) and returns its results by task id.

    Options: ``workdir``, ``gpus`` (``auto``, ``none``, ``0,2``, ``sim:2x24GiB``), ``fresh``,
    ``set`` (a mapping of config keys, as ``--set``), ``config_file``, ``host_ledger`` (bool),
    ``berth`` (the command), ``echo`` (show Berth's lines), ``check`` (default true: raise
    :class:`RunFailed`, with the failing tasks' stderr tails, when a task did not succeed).
    Bad input raises :class:`BerthError` with Berth's one line.
    """
    _payload.stop_if_reimporting()
    _check_options(options, RUN_OPTIONS, "run")
    cwd = os.getcwd()
    home = None
    if isinstance(spec_or_path, dict):
        home = tempfile.mkdtemp(prefix="berth-spec-")
        spec = dict(spec_or_path)
        path = _command.write_spec(os.path.join(home, "spec.yaml"), spec)
        workdir = options.get("workdir") or spec.get("workdir") or os.path.join("berth-out", spec.get("name", "run"))
    else:
        path = os.path.abspath(os.fspath(spec_or_path))
        workdir = options.get("workdir") or _spec_workdir(path)
    workdir = os.path.abspath(os.path.join(cwd, workdir))
    flags = ["--workdir=%s" % workdir]
    if options.get("fresh"):
        flags.append("--fresh")
    if options.get("config_file"):
        flags.append("--config=%s" % os.path.abspath(options["config_file"]))
    for key, value in (options.get("set") or {}).items():
        flags.append("--set=%s=%s" % (key, _text(value)))
    try:
        berth_run(path, flags, gpus=options.get("gpus"), host_ledger=options.get("host_ledger"),
                  berth=options.get("berth"), echo=options.get("echo", True), cwd=cwd,
                  env=_command.child_environment())
    finally:
        if home is not None:
            # the run's journal keeps the spec it ran; the file written for it is needed no longer
            shutil.rmtree(home, ignore_errors=True)
    report = RunReport(workdir)
    if options.get("check", True) and report.failures:
        raise RunFailed(report)
    return Results(report)


def _spec_workdir(path):
    """The workdir a spec file names (or Berth's default, berth-out/NAME), read without a YAML library."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    try:
        data = json.loads(text)
        if isinstance(data, dict):
            return data.get("workdir") or os.path.join("berth-out", str(data.get("name", "")))
    except ValueError:
        pass
    found = {}
    for key in ("workdir", "name"):
        match = re.search(r"(?m)^%s:\s*(.*?)\s*$" % key, text)
        if match:
            value = re.sub(r"\s+#.*$", "", match.group(1))
            found[key] = value.strip().strip("'\"")
    return found.get("workdir") or os.path.join("berth-out", found.get("name", ""))


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_options(options, known, what):
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise TypeError("%s() got unknown option(s) %s; known: %s" % (what, ", ".join(unknown), ", ".join(known)))


class Client:
    """Settings shared by its ``map`` and ``submit`` calls, which each become one Berth run.

    ``memory``, ``cpus`` and ``gpu_memory`` are each call's reservation; ``pool`` is the engine pool:
    a name, a mapping of pool keys (``{"size": 2, "setup": "mymodel:warm"}``) or ``False`` for a
    process per call; ``gpus`` the devices (``sim:2x24GiB`` on a machine without GPUs);
    ``workdir`` the run's folder (default: a new temporary one, removed after a run where every call
    succeeded); ``config`` a mapping of Berth config keys; ``retries``, ``timeout``; ``berth``,
    ``echo``, ``host_ledger``.
    """

    OPTIONS = ("memory", "cpus", "gpu_memory", "pool", "gpus", "workdir", "config", "retries", "timeout",
               "berth", "echo", "host_ledger", "name")

    def __init__(self, **options):
        _check_options(options, self.OPTIONS, "Client")
        self.options = options
        self._lock = threading.Lock()
        self._pending = []
        self._timer = None
        self.window = 0.2  # seconds of quiet after a submit before its batch starts

    def map(self, fn, items, **options):
        """``[fn(item) for item in items]``, run by Berth; the results in the items' order.

        A call that fails raises :class:`RunFailed` naming it, with its stderr tail, unless
        ``return_exceptions=True``, which puts a :class:`CallFailed` in its place instead.
        """
        _payload.stop_if_reimporting()
        return_exceptions = options.pop("return_exceptions", False)
        merged = dict(self.options, **options)
        _check_options(merged, self.OPTIONS, "map")
        calls = [functools.partial(fn, item) for item in items]
        if not calls:
            return []
        outcomes = _run_calls(calls, merged)
        failures = [o for o in outcomes if isinstance(o, CallFailed)]
        if failures and not return_exceptions:
            raise failures[0].run_failed
        return outcomes

    def submit(self, fn, *args, **kwargs):
        """Schedules ``fn(*args, **kwargs)``; returns a ``concurrent.futures.Future``.

        Calls submitted within ``window`` seconds of each other run as one Berth run.
        """
        _payload.stop_if_reimporting()
        future = concurrent.futures.Future()
        with self._lock:
            self._pending.append((functools.partial(fn, *args, **kwargs), future))
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self.window, self._flush)
            self._timer.daemon = True
            self._timer.start()
        return future

    def _flush(self):
        with self._lock:
            batch, self._pending, self._timer = self._pending, [], None
        if not batch:
            return
        futures = [f for _, f in batch]
        for future in futures:
            future.set_running_or_notify_cancel()
        try:
            outcomes = _run_calls([c for c, _ in batch], dict(self.options))
        except BaseException as error:  # noqa: BLE001 - every waiting future learns why
            for future in futures:
                future.set_exception(error)
            return
        for future, outcome in zip(futures, outcomes):
            if isinstance(outcome, CallFailed):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)


class CallFailed(Exception):
    """One call of a ``map`` or ``submit`` did not succeed: its status, reason and stderr tail."""

    def __init__(self, outcome, run_failed):
        self.outcome = outcome
        self.run_failed = run_failed
        tail = outcome.stderr_tail()
        super().__init__("%s %s%s%s" % (outcome.id, outcome.status, ": %s" % outcome.error if outcome.error else "",
                                        "\n" + tail if tail else ""))


def _run_calls(calls, options):
    """Runs the calls as call tasks of one Berth run; each one's return value, or a CallFailed."""
    temporary = not options.get("workdir")
    home = tempfile.mkdtemp(prefix="berth-map-") if temporary else os.path.abspath(options["workdir"])
    workdir = os.path.join(home, "run")
    inputs = os.path.join(workdir, ".inputs")
    os.makedirs(inputs, exist_ok=True)
    batch = _payload.dump(calls, os.path.join(inputs, "calls.pickle"))
    width = len(str(len(calls) - 1))
    ids = ["call-%0*d" % (width, i) for i in range(len(calls))]
    group = {"name": "calls", "cpus": options.get("cpus", 1), "tasks": []}
    group.update(spec_keys(options, ("memory", "gpu_memory", "retries", "timeout")))
    spec = {"name": options.get("name") or "map", "workdir": workdir, "groups": [group]}
    pool = options.get("pool", "map")
    pool_name = None
    if pool is not False and pool is not None:
        if isinstance(pool, dict):
            pool_name, settings = "map", dict(pool)
        else:
            pool_name, settings = str(pool), {}
        # Berth's auto size starts an engine per call admitted at once: for many tiny calls, one
        # engine per core, each queueing short calls (hwm: auto), is faster.
        settings.setdefault("size", max(1, min(os.cpu_count() or 1, 8)))
        settings.setdefault("python", sys.executable)  # the caller's interpreter, with its packages
        spec["pools"] = {pool_name: settings}
    for index, task_id in enumerate(ids):
        task = {"id": task_id, "call": "berth._calls:apply", "params": {"payload": batch, "index": index}}
        if pool_name:
            task["pool"] = pool_name
        group["tasks"].append(task)
    if options.get("config"):
        spec["config"] = nest(options["config"])
    report = run_spec(spec, inputs, gpus=options.get("gpus"), host_ledger=options.get("host_ledger"),
                      berth=options.get("berth"), echo=options.get("echo", True))
    run_failed = RunFailed(report) if report.failures else None
    outcomes = []
    for task_id in ids:
        outcome = report.outcome(task_id)
        outcomes.append(_payload.load_return(outcome.workdir) if outcome.succeeded else CallFailed(outcome, run_failed))
    if temporary and run_failed is None:
        shutil.rmtree(home, ignore_errors=True)
    return outcomes


_default = None
_default_lock = threading.Lock()


def _client():
    global _default
    with _default_lock:
        if _default is None:
            _default = Client()
        return _default


def map(fn, items, **options):  # noqa: A001 - the name ipyparallel's users know
    """``[fn(item) for item in items]`` in Berth's warm engines; see :class:`Client` for the options
    (``gpu_memory``, ``memory``, ``cpus``, ``pool``, ``gpus``, ...)."""
    return _client().map(fn, builtins.list(items), **options)


def submit(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` in a warm engine; returns a ``concurrent.futures.Future``."""
    return _client().submit(fn, *args, **kwargs)


