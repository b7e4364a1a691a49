"""Berth's Python engine: runs task calls ("package.module:function") in one warm interpreter.

Standard library only. Two ways to run it:

  python3 -u berth_engine.py call MODULE:FUNCTION KWARGS_JSON [--path DIR]...
      one call in this process (a call task run as a process of its own);
  python3 -u berth_engine.py engine [--setup MODULE:FUNCTION] [--path DIR]...
      an engine: the setup once, then one call per request line read on stdin.

Engine protocol, JSON lines. The engine writes to the descriptor that was its stdout when it started;
a call's own output (print, C extensions, child processes) goes to the call's log files instead, and
anything else (the setup's) to the engine's standard error, so nothing can corrupt the protocol.
  engine -> Berth, once:     {"ready": true, "pid": N}  or  {"ready": false, "error": TRACEBACK}
  Berth -> engine, per call: {"id": N, "call": "m:f", "kwargs": {...}, "env": {...}, "cwd": DIR,
                              "stdout": FILE, "stderr": FILE, "result": FILE, "path": [DIR...]}
  engine -> Berth, per call: {"id": N, "ok": true|false, "error": TRACEBACK, "rss": BYTES, "cpu": SECONDS}
A call's return value, a JSON-able mapping, is written to its result file (atomically); an exception's
traceback goes to the reply and to the call's stderr file.
"""
import importlib
import json
import os
import queue
import resource
import sys
import threading
import traceback

_functions = {}


def _function(spec):
    if spec not in _functions:
        module, _, name = spec.partition(":")
        target = importlib.import_module(module)
        for part in name.split("."):
            target = getattr(target, part)
        _functions[spec] = target
    return _functions[spec]


def _add_paths(paths):
    for entry in reversed(paths or []):
        if entry not in sys.path:
            sys.path.insert(0, entry)


def _write_result(path, value):
    if value is None or not path:
        return
    if not isinstance(value, dict):
        raise TypeError("a call's return value must be a mapping (a dict) or None, not "
                        + type(value).__name__)
    tmp = path + ".tmp"
    with open(tmp, "w") as out:
        json.dump(value, out, sort_keys=True)
    os.replace(tmp, path)


_statm = []  # /proc/self/statm, opened once: each read from offset 0 is a fresh figure


def _rss():
    try:
        if not _statm:
            _statm.append(os.open("/proc/self/statm", os.O_RDONLY))
            _statm.append(os.sysconf("SC_PAGE_SIZE"))
        return int(os.pread(_statm[0], 128, 0).split()[1]) * _statm[1]
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _options(args):
    paths, setup = [], None
    i = 0
    while i < len(args):
        if args[i] == "--path":
            paths.append(args[i + 1])
        elif args[i] == "--setup":
            setup = args[i + 1]
        i += 2
    return paths, setup


def call_once(args):
    """Runs one call in this process; exit 1 with the traceback on stderr when it raises."""
    paths, _ = _options(args[2:])
    _add_paths(paths)
    try:
        value = _function(args[0])(**json.loads(args[1]))
        task_dir = os.environ.get("BERTH_TASK_DIR")
        _write_result(os.path.join(task_dir, "result.json") if task_dir else None, value)
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


def _redirect(stdout, stderr):
    sys.stdout.flush()
    sys.stderr.flush()
    for fd, path in ((1, stdout), (2, stderr)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(target, fd)
        os.close(target)


def _restore(idle):
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(idle, 1)
    os.dup2(idle, 2)


class _Environment:
    """Gives each call the engine's own environment plus the call's variables. Rewriting the whole
    environment costs more than a tiny call, so only what differs from the last call's is changed,
    unless a call changed the environment itself: then it is rebuilt."""

    def __init__(self):
        self.baseline = dict(os.environ)
        self.given = {}
        self.seen = None

    def enter(self, env):
        data = getattr(os.environ, "_data", None)  # CPython's own mapping, compared in one step
        if data is None or self.seen is None or data != self.seen:
            os.environ.clear()
            os.environ.update(self.baseline)
            os.environ.update(env)
        else:
            for key in self.given:
                if key not in env:
                    if key in self.baseline:
                        os.environ[key] = self.baseline[key]
                    else:
                        del os.environ[key]
            for key, value in env.items():
                if self.given.get(key) != value:
                    os.environ[key] = value
        self.given = env
        self.seen = dict(data) if data is not None else None


def _serve_one(request, environment, idle):
    reply = {"id": request.get("id")}
    _redirect(request["stdout"], request["stderr"])
    environment.enter(request.get("env") or {})
    try:
        if request.get("cwd"):
            os.chdir(request["cwd"])
        _add_paths(request.get("path"))
        value = _function(request["call"])(**(request.get("kwargs") or {}))
        _write_result(request.get("result"), value)
        reply["ok"] = True
    except BaseException as e:  # a call's SystemExit or KeyboardInterrupt ends the call, not the engine
        text = traceback.format_exc()
        sys.stderr.write(text)
        reply["ok"] = False
        reply["error"] = text
        if isinstance(e, MemoryError):
            reply["memory"] = True
    finally:
        _restore(idle)
    reply["rss"] = _rss()
    reply["cpu"] = _cpu()
    return reply


def engine(args):
    """Serves calls read from stdin until it closes."""
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    requests = sys.stdin
    idle = os.dup(2)  # the engine's own log, for what runs between calls (the setup, say)
    _restore(idle)
    paths, setup = _options(args)
    _add_paths(paths)
    environment = _Environment()
    try:
        if setup:
            _function(setup)()
    except BaseException:
        protocol.write(json.dumps({"ready": False, "error": traceback.format_exc()}) + "\n")
        return 1
    protocol.write(json.dumps({"ready": True, "pid": os.getpid()}) + "\n")
    lines = queue.Queue()
    pending = [0]  # calls received and not yet answered
    lock = threading.Lock()

    def read():
        # Berth closes the engine's input only when no call is in flight; an end of input with a call
        # received and not answered means Berth is gone, and the engine ends at once rather than run on
        # beside a resumed run that cannot see it.
        for line in requests:
            if line.strip():
                with lock:
                    pending[0] += 1
                lines.put(line)
        with lock:
            if pending[0]:
                os._exit(3)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    while True:
        line = lines.get()
        if line is None:
            return 0
        reply = _serve_one(json.loads(line), environment, idle)
        protocol.write(json.dumps(reply) + "\n")
        with lock:
            pending[0] -= 1


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "call":
        sys.exit(call_once(sys.argv[2:]))
    if len(sys.argv) >= 2 and sys.argv[1] == "engine":
        sys.exit(engine(sys.argv[2:]))
    sys.stderr.write(__doc__)
    sys.exit(2)
