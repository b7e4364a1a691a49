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
  engine -> Berth, per call: {"id": N, "ok": true|false, "error": TRACEBACK, "rss": BYTES, "cpu": SECONDS,
                              "wall": SECONDS}
  Berth -> engine, any time: {"skip": N}: call N, received and not begun, is answered {"id": N, "skipped": true}
                              without running
Calls are run one after another in the order received. A call's return value, a JSON-able mapping, is
written to its result file (a new file, written once before the reply); an exception's traceback goes
to the reply and to the call's stderr file.
"""
import collections
import importlib
import json
import os
import resource
import select
import sys
import threading
import time
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
    # One write of the whole text: the call is not over until it is done, so a reader never sees half of it.
    text = json.dumps(value, sort_keys=True)
    with open(path, "w") as out:
        out.write(text)


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
    began = time.monotonic()
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
    reply["wall"] = time.monotonic() - began
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
    serve(_Requests(sys.stdin.fileno()), protocol, environment, idle)
    return 0


class _Requests:
    """The request lines Berth wrote to the engine's input. Before each call the engine reads all that
    is there, so a skip Berth sent while the call was still queued is seen before the call begins."""

    def __init__(self, fd):
        self.fd = fd
        self.unsplit = bytearray()
        self.calls = collections.deque()
        self.skipped = set()
        self.open = True

    def _read(self):
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            self.open = False
            return
        self.unsplit.extend(chunk)
        while True:
            end = self.unsplit.find(b"\n")
            if end < 0:
                return
            line = bytes(self.unsplit[:end])
            del self.unsplit[:end + 1]
            if line.startswith(b'{"skip"'):
                self.skipped.add(json.loads(line)["skip"])
            elif line.strip():
                self.calls.append(line)

    def next(self):
        """The next call's request; None once the input ended with no call left to run."""
        while self.open and select.select([self.fd], [], [], 0)[0]:
            self._read()
        while self.open and not self.calls:
            self._read()
        if not self.open and self.calls:
            # Berth closes the input only when no call is in flight: an end with calls received and not
            # answered means Berth is gone, and the engine ends rather than run them unseen beside a
            # resumed run.
            os._exit(3)
        return json.loads(self.calls.popleft()) if self.calls else None


def serve(requests, protocol, environment, idle):
    """Runs calls until the input ends; one that ends while a call runs ends the engine at once."""
    busy = [False]
    hung_up = [False]
    lock = threading.Lock()

    def watch():
        hangup = select.poll()
        hangup.register(requests.fd, 0)  # no events asked for: only the hang-up of the writer is reported
        hangup.poll()
        with lock:
            hung_up[0] = True
            if busy[0]:
                os._exit(3)

    threading.Thread(target=watch, daemon=True).start()
    while True:
        request = requests.next()
        if request is None:
            return
        if request.get("id") in requests.skipped:
            requests.skipped.discard(request.get("id"))
            protocol.write(json.dumps({"id": request.get("id"), "skipped": True}) + "\n")
            continue
        with lock:
            if hung_up[0]:
                os._exit(3)  # the input ended after this call was read: Berth is gone
            busy[0] = True
        reply = _serve_one(request, environment, idle)
        with lock:
            busy[0] = False
        protocol.write(json.dumps(reply) + "\n")

if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "call":
        sys.exit(call_once(sys.argv[2:]))
    if len(sys.argv) >= 2 and sys.argv[1] == "engine":
        sys.exit(engine(sys.argv[2:]))
    sys.stderr.write(__doc__)
    sys.exit(2)
