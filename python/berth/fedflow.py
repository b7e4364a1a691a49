"""fedflow's user-facing API, run by Berth: a fedflow script switches by changing its imports.

::

    from berth.fedflow import FedFlow, Task, TaskGroup      # was: from fedflow import ...

    class Client(Task):
        def load(self): ...                 # on the CPU, in the task's own process
        def train(self, device): ...        # on the device Berth hands over; returns a dict

    group = TaskGroup("round-1", estimate_memory="300MB", estimate_cuda_memory="4GB")
    for i in range(10):
        group.add_task(Client(i))
    with FedFlow(gpus="sim:2x24GiB") as flow:   # gpus= and workdir= are optional
        flow.execute(group)
    group.get_task(0).result                    # the dict train returned

Each task object travels to a process of its own by pickling, as fedflow's did, and runs there as a
two-stage Berth task; groups run one after another. Afterwards each task object in the caller holds
its ``result``, its items (``get_item``), its ``status`` (``EXITED`` after success, ``EXCEPTION``
otherwise), ``load_numbers``, ``train_numbers``, ``load_time``, ``train_time`` and ``workdir``; each
group's ``result`` maps task ids to what fedflow reported. Berth's admission, GPU packing,
out-of-memory retries (``scheduler.load-nretry``, ``train-nretry``, with growing reservations),
journal and reports apply. Standard library only.
"""

import enum
import itertools
import os
import re
import sys
import time
import uuid

from . import _payload
from ._report import read_json
from ._run import merge, nest, run_spec

__all__ = ["Task", "TaskGroup", "TaskStatus", "FedFlow", "Config"]


class TaskStatus(enum.Enum):
    """fedflow's task states, with its numbers."""

    UNKNOWN = 0
    INIT = 1
    AVAILABLE = 2
    LOADING = 3
    WAITING = 4
    TRAINING = 5
    FINISHED = 6
    EXITED = 7
    EXCEPTION = 8
    INTERRUPT = 9


class Task:
    """A fedflow task: subclass it and define ``load()`` and ``train(device) -> dict``."""

    def __init__(self, task_id=None, *, estimate_memory=None, estimate_cuda_memory=None, device=None):
        self.task_id = task_id if task_id is not None else str(uuid.uuid4())
        self.estimate_memory = estimate_memory
        self.estimate_cuda_memory = estimate_cuda_memory
        self.device = device
        self.load_numbers = 0
        self.train_numbers = 0
        self.load_time = -1
        self.train_time = -1
        self.result = {}
        self.error = None  # Berth's reason, after a run in which the task did not succeed
        self._items = {}
        self._workdir = None
        self._status = TaskStatus.INIT
        self._context = None

    @property
    def workdir(self):
        """The task's folder; known once the task started."""
        if self._workdir is None:
            raise ValueError("The workdir field is not available.")
        return self._workdir

    @property
    def status(self):
        return self._status

    @status.setter
    def status(self, value):
        try:
            if isinstance(value, TaskStatus):
                self._status = value
            elif isinstance(value, int):
                self._status = TaskStatus(value)
            else:
                self._status = TaskStatus[str(value)]
        except (KeyError, ValueError):
            self._status = TaskStatus.UNKNOWN

    def set_item(self, key, value):
        """Keeps a named value; in the task's process it reaches Berth at once (items.json)."""
        self._items[key] = value
        if self._context is not None:
            self._context.set_item(key, value)

    def get_item(self, key, default=None):
        """A value given to ``set_item``; in the caller, after ``execute``, the task's last one."""
        return self._items.get(key, default)

    @property
    def items(self):
        return dict(self._items)

    def load(self):
        """Loads what training needs, on the CPU. Subclasses define it."""
        raise NotImplementedError()

    def train(self, device):
        """Trains on ``device`` ("cuda:N" or "cpu") and returns a dict. Subclasses define it."""
        raise NotImplementedError()

    def _enter_process(self, context):
        """Binds the task to Berth's context in its own process."""
        self._context = context
        self._workdir = context.workdir
        self._status = TaskStatus.LOADING

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_context"] = None  # a socket: it stays in the process that has it
        return state

    def __repr__(self):
        return "<%s %s %s>" % (type(self).__name__, self.task_id, self._status.name)


class TaskGroup:
    """Tasks run together; groups run one after another."""

    _index = itertools.count(1)

    def __init__(self, group_name=None, *, estimate_memory=None, estimate_cuda_memory=None, device=None):
        self.index = next(TaskGroup._index)
        self._group_name = group_name if group_name is not None else "group-%d" % self.index
        self.estimate_memory = estimate_memory
        self.estimate_cuda_memory = estimate_cuda_memory
        self._device = device
        self._tasks = {}
        self.result = {}

    @property
    def group_name(self):
        return self._group_name

    @property
    def device(self):
        return self._device

    @property
    def tasks(self):
        """The tasks in the order they were added."""
        return list(self._tasks.values())

    def add_task(self, task):
        if not isinstance(task, Task):
            raise TypeError("a TaskGroup holds berth.fedflow.Task objects, not %s" % type(task).__name__)
        if task.task_id in self._tasks:
            raise ValueError("task %r is already in group %s" % (task.task_id, self._group_name))
        self._tasks[task.task_id] = task

    def get_task(self, task_id):
        return self._tasks.get(task_id)

    def finished(self):
        return all(t.status in (TaskStatus.EXITED, TaskStatus.EXCEPTION) for t in self._tasks.values())

    def numbers(self):
        """fedflow's (process, waiting, training) counts: all zero outside a run."""
        alive = (TaskStatus.AVAILABLE, TaskStatus.LOADING, TaskStatus.WAITING, TaskStatus.TRAINING)
        tasks = self._tasks.values()
        return (sum(t.status in alive for t in tasks), sum(t.status == TaskStatus.WAITING for t in tasks),
                sum(t.status == TaskStatus.TRAINING for t in tasks))


class Config:
    """fedflow's configuration: its keys are Berth's (``berth config --defaults``), plus ``workdir``.

    ``set_property("scheduler.max-process", 4)``; a number for a duration key means seconds, as in
    fedflow. ``load(path)`` reads a fedflow ``config.yaml``; one in the current folder is read when
    ``FedFlow`` starts and none was loaded.
    """

    _properties = {}
    _loaded = False
    DURATION_KEYS = ("scheduler.interval", "scheduler.put-interval", "scheduler.available-interval",
                     "smtp.min-interval")

    @classmethod
    def set_property(cls, key, value):
        cls._properties[str(key)] = value

    @classmethod
    def get_property(cls, key, default=None):
        return cls._properties.get(key, default)

    @classmethod
    def clear(cls):
        cls._properties = {}
        cls._loaded = False

    @classmethod
    def load(cls, path):
        """Reads a fedflow config.yaml (nested mappings of plain values)."""
        with open(path, encoding="utf-8") as file:
            tree = _parse_simple_yaml(file.read(), path)
        for key, value in _flatten(tree):
            cls.set_property(key, value)
        cls._loaded = True

    @classmethod
    def _load_default(cls):
        if not cls._loaded and os.path.isfile("config.yaml"):
            cls.load("config.yaml")
        cls._loaded = True

    @classmethod
    def berth_config(cls):
        """The keys as a spec's ``config:`` mapping (``workdir`` is the run's, not a config key)."""
        flat = {}
        for key, value in sorted(cls._properties.items()):
            if key == "workdir":
                continue
            if key in cls.DURATION_KEYS and isinstance(value, (int, float)) and not isinstance(value, bool):
                value = "%gs" % value
            if key.startswith("utilization-limit.") and isinstance(value, (int, float)) and value > 1:
                value = 1.0  # fedflow's way to turn a gate off (1.01, say); Berth's limits stop at 1
            flat[key] = value
        return nest(flat)


class FedFlow:
    """Runs task groups with Berth: ``with FedFlow(gpus=..., workdir=...) as flow: flow.execute(group)``.

    Options: ``gpus`` (``auto``, ``none``, ``0,2`` or ``sim:2x24GiB``, as in a spec), ``workdir`` (the
    run's folder; default ``berth-out/fedflow-<time>``, or ``workdir`` of the config; a workdir that
    holds this flow's finished run is read back, an interrupted one resumed), ``name``, ``cpus``
    (cores each task holds; default 0, as fedflow counts none), ``config`` (a mapping of Berth config
    keys, beside ``Config``'s), ``berth`` (the command), ``echo`` (show Berth's lines; default true).
    All groups of one ``FedFlow`` are one Berth run, grown by each ``execute``.
    """

    _pending_groups = []

    def __init__(self, **options):
        known = {"gpus", "workdir", "name", "cpus", "config", "berth", "echo", "host_ledger"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError("unknown FedFlow option(s) %s; known: %s" % (", ".join(unknown), ", ".join(sorted(known))))
        _payload.stop_if_reimporting()
        self.options = options
        self._run = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def execute(self, group):
        """Runs one group to its end; its tasks then hold their results. Returns the group."""
        _payload.stop_if_reimporting()
        self._flow_run().execute([group])
        return group

    def execute_task(self, task):
        """Runs one task in a group of its own; the task then holds its result. Returns the task."""
        _payload.stop_if_reimporting()
        group = TaskGroup("task-%s" % _safe(str(task.task_id)))
        group.add_task(task)
        self._flow_run().execute([group])
        return task

    @classmethod
    def add_group(cls, group):
        """Queues a group for ``start``."""
        cls._pending_groups.append(group)

    @classmethod
    def start(cls, **options):
        """Runs the queued groups in order, as one Berth run, and empties the queue."""
        _payload.stop_if_reimporting()
        groups, cls._pending_groups = list(cls._pending_groups), []
        if not groups:
            return groups
        cls(**options)._flow_run().execute(groups)
        return groups

    def _flow_run(self):
        if self._run is None:
            Config._load_default()
            self._run = _FlowRun(self.options)
        return self._run


class _FlowRun:
    """One Berth run that grows by a group (or several) with each execute."""

    def __init__(self, options):
        workdir = options.get("workdir") or Config.get_property("workdir")
        if not workdir:
            workdir = os.path.join("berth-out", "fedflow-%s-%d" % (time.strftime("%Y%m%d-%H%M%S"), os.getpid()))
        self.workdir = os.path.abspath(workdir)
        self.inputs = os.path.join(self.workdir, ".fedflow")
        self.options = options
        self.name = _safe(options.get("name") or "fedflow")
        # A flow run again in its folder takes its earlier groups back, in their order, so its spec
        # only grows: a group executed again with the same name and tasks is the same spec group,
        # which Berth does not run again, and a later group the flow has not reached yet stays.
        self.groups = _stored_groups(self.inputs)
        self.claimable = {g["name"] for g in self.groups}

    def execute(self, groups):
        os.makedirs(self.inputs, exist_ok=True)
        pending = []
        for group in groups:
            name = _safe(group.group_name)
            names = [g["name"] for g in self.groups]
            if name in self.claimable:
                self.claimable.discard(name)
                index = names.index(name)
            else:
                name = _unique(name, set(names))
                index = len(self.groups)
                self.groups.append(None)
            # ids are unique in a Berth run, fedflow's only in a group: those of the groups before
            # this one are taken
            taken = {t["id"] for g in self.groups[:index] for t in g["tasks"]}
            self.groups[index], members = self._spec_group(name, group, taken)
            pending.append((group, members))
        spec = {"name": self.name, "workdir": self.workdir, "groups": self.groups}
        config = merge(Config.berth_config(), nest(self.options.get("config") or {}))
        if config:
            spec["config"] = config
        report = run_spec(spec, self.inputs, gpus=self.options.get("gpus"), host_ledger=self.options.get("host_ledger"),
                          berth=self.options.get("berth"), echo=self.options.get("echo", True),
                          extra_args=["--allow-changed=new"])
        for group, members in pending:
            _read_back(report, group, members)

    def _spec_group(self, name, group, taken):
        """The group's entry in the spec, its tasks' payloads written, and each task by its Berth id."""
        folder = os.path.join(self.inputs, name)
        os.makedirs(folder, exist_ok=True)
        on_cpu_only = str(self.options.get("gpus", "")).strip() == "none"
        spec_group = {"name": name, "two-stage": True, "cpus": self.options.get("cpus", 0), "tasks": []}
        members = []
        if group.estimate_memory is not None:
            spec_group["memory"] = group.estimate_memory
        for task in group.tasks:
            berth_id = _safe(str(task.task_id))
            if berth_id in taken:  # the same id in an earlier group (client 0 of every round)
                berth_id = _unique("%s.%s" % (name, berth_id), taken)
            taken.add(berth_id)
            members.append((berth_id, task))
            path = _payload.dump(task, os.path.join(folder, berth_id + ".pickle"))
            entry = {"id": berth_id, "command": [sys.executable, "-m", "berth._worker", "fedflow", path]}
            memory = task.estimate_memory if task.estimate_memory is not None else group.estimate_memory
            if memory is not None:
                entry["memory"] = memory
            device = task.device if task.device is not None else group.device
            cuda = task.estimate_cuda_memory if task.estimate_cuda_memory is not None else group.estimate_cuda_memory
            if (device is not None and str(device).strip() == "cpu") or (on_cpu_only and device is None):
                entry["device"] = "cpu"
            else:
                # fedflow trains every task on a GPU, with scheduler.default-cuda-memory when not told
                entry["device"] = str(device) if device is not None else "cuda"
                if cuda is not None:
                    entry["gpu-memory"] = cuda
            spec_group["tasks"].append(entry)
        return spec_group, members


def _read_back(report, group, members):
    """Puts what Berth recorded into the group's task objects (``members``: each by its Berth id)."""
    group.result = {}
    for berth_id, task in members:
        outcome = report.by_id.get(berth_id)
        if outcome is None:
            continue
        _apply(task, outcome)
        if outcome.succeeded:
            entry = dict(task.result)
            entry["load_time"], entry["train_time"] = task.load_time, task.train_time
        else:
            last = outcome.attempts[-1] if outcome.attempts else {}
            stage = (last.get("stage") or "load").lower()
            # fedflow reported the traceback: the task's standard error ends with it
            message = outcome.stderr_tail(40) or outcome.error or last.get("error") or outcome.status
            entry = {"stage": stage, "message": message, "reason": outcome.error}
        group.result[task.task_id] = entry


def _stored_groups(inputs):
    """The groups of the spec an earlier run of the flow wrote, or none."""
    spec = read_json(inputs, "spec.json", {})
    return list(spec.get("groups") or []) if isinstance(spec, dict) else []


def _apply(task, outcome):
    """Puts what Berth recorded of a task into the caller's task object."""
    task._workdir = outcome.workdir
    task.result = outcome.result if outcome.succeeded else {}
    task._items = dict(outcome.items)
    task.load_numbers = len(outcome.attempts)
    task.train_numbers = sum(len(a.get("trainCalls") or []) for a in outcome.attempts)
    last = outcome.attempts[-1] if outcome.attempts else {}
    task.load_time = last.get("loadTimeMs") if last.get("loadTimeMs") is not None else -1
    task.train_time = last.get("trainTimeMs") if last.get("trainTimeMs") is not None else -1
    if outcome.succeeded:
        task.device = last.get("device") or task.device
        task._status = TaskStatus.EXITED
    else:
        task._status = TaskStatus.EXCEPTION
    task.error = None if outcome.succeeded else outcome.error


def _safe(text):
    """A Berth id from any text: other characters than those ids allow become "_"."""
    safe = re.sub(r"[^A-Za-z0-9._\-+=@,]", "_", text)[:200]
    return safe or "_"


def _unique(name, taken):
    if name not in taken:
        return name
    for n in itertools.count(2):
        candidate = "%s-%d" % (name, n)
        if candidate not in taken:
            return candidate


def _flatten(tree, prefix=""):
    for key, value in tree.items():
        name = prefix + str(key)
        if isinstance(value, dict):
            yield from _flatten(value, name + ".")
        else:
            yield name, value


def _parse_simple_yaml(text, origin):
    """Nested block mappings of scalars and flow lists: the shape of fedflow's config.yaml."""
    root = {}
    stack = [(-1, root)]
    for number, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw).rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        key, sep, value = line.strip().partition(":")
        if not sep:
            raise ValueError("%s:%d: expected 'key: value'" % (origin, number))
        while stack and indent <= stack[-1][0]:
            stack.pop()
        parent = stack[-1][1]
        key = key.strip().strip("'\"")
        value = value.strip()
        if value == "":
            parent[key] = {}
            stack.append((indent, parent[key]))
        else:
            parent[key] = _scalar(value)
    return root


def _strip_comment(line):
    quote = None
    for i, ch in enumerate(line):
        if ch in "'\"":
            quote = None if quote == ch else (quote or ch)
        elif ch == "#" and quote is None and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def _scalar(text):
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar(part.strip()) for part in inner.split(",")] if inner else []
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if lowered in ("null", "~"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
