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
                              "stdout": FILE, "stderr": FILE, "shown": [FILE, FILE], "result": FILE,
                              "path": [DIR...]}
    (stdout and stderr: the attempt's log files; shown: the task's stdout.log and stderr.log, which
    become links to them; a log the call writes nothing to is not made)
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


class _Logs:
    """A call's standard output and error, made files only when it writes to them. The engine keeps two
    spool files that take what a call prints (Python, C extensions and child processes alike); after
    the call a spool that took anything becomes the call's log (its attempt's file and the task's
    stdout.log or stderr.log, two links to it) and a fresh spool takes its place, while an empty one
    is used again, so a call that prints nothing costs no file. A call still running after SHOW_AFTER
    seconds gets its links then, so its output can be followed as it comes; they go again if it ends
    having printed nothing."""

    SHOW_AFTER = 1.0

    def __init__(self, folder):
        os.makedirs(folder, exist_ok=True)
        self.folder = folder
        self.made = 0
        self.spools = [self._spool(), self._spool()]
        self.names = None  # per stream: the call's attempt file and the task's file, while a call runs
        self.shown = False
        self.began = 0.0
        self.lock = threading.Lock()
        threading.Thread(target=self._watch, daemon=True).start()

    def _spool(self):
        self.made += 1
        path = os.path.join(self.folder, "spool-%d-%d" % (os.getpid(), self.made))
        return path, os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)

    def begin(self, request):
        """Points descriptors 1 and 2 at the spools for the call {request}."""
        sys.stdout.flush()
        sys.stderr.flush()
        shown = request.get("shown") or [None, None]
        names = [(request.get("stdout"), shown[0]), (request.get("stderr"), shown[1])]
        if (request.get("env") or {}).get("BERTH_ATTEMPT", "1") != "1":
            for _, task_file in names:
                _unlink(task_file)  # an earlier attempt's log is not this one's
        with self.lock:
            self.names = names
            self.shown = False
            self.began = time.monotonic()
        for fd, (_, spool) in ((1, self.spools[0]), (2, self.spools[1])):
            os.dup2(spool, fd)

    def end(self, idle):
        """Points descriptors 1 and 2 back at the engine's log; the spools that took output become the call's logs."""
        _restore(idle)
        with self.lock:
            names, shown, self.names = self.names, self.shown, None
        for i in (0, 1):
            path, fd = self.spools[i]
            if os.fstat(fd).st_size == 0:
                if shown:
                    for name in names[i]:
                        _unlink(name)
                continue
            if not shown:
                _show(path, names[i])
            os.close(fd)
            _unlink(path)
            self.spools[i] = self._spool()

    def _watch(self):
        while True:
            time.sleep(self.SHOW_AFTER / 2)
            with self.lock:
                if self.names and not self.shown and time.monotonic() - self.began >= self.SHOW_AFTER:
                    for (path, _), names in zip(self.spools, self.names):
                        _show(path, names)
                    self.shown = True


def _unlink(path):
    if path:
        try:
            os.unlink(path)
        except OSError:
            pass


def _show(spool, names):
    """Gives the spool's file the call's log names (the attempt's file, then the task's)."""
    for name in names:
        if not name:
            continue
        _unlink(name)
        try:
            os.link(spool, name)
        except OSError:  # no links here (another file system): a copy of what it holds so far
            try:
                with open(spool, "rb") as src, open(name, "ab") as out:
                    out.write(src.read())
            except OSError:
                pass  # no folder to write it to: the reply still carries a failure's traceback


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


def _serve_one(request, environment, idle, logs):
    reply = {"id": request.get("id")}
    began = time.monotonic()
    logs.begin(request)
    environment.enter(request.get("env") or {})
    try:
        if request.get("cwd"):
            os.makedirs(request["cwd"], exist_ok=True)  # the task's folder: Berth leaves it to the engine
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
        logs.end(idle)
    reply["wall"] = time.monotonic() - began
    reply["rss"] = _rss()
    reply["cpu"] = _cpu()
    return reply


def engine(args):
    """Serves calls read from stdin until it closes."""
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    # The engine starts in the run's folder; its spools go beside its log, pools/POOL/engine-N.log.
    spools = os.path.join(os.getcwd(), "pools", os.environ.get("BERTH_ENGINE", "engine"))
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
    logs = _Logs(spools)
    serve(_Requests(sys.stdin.fileno()), protocol, lambda request: _serve_one(request, environment, idle, logs))
    for path, _ in logs.spools:
        _unlink(path)
    try:
        os.rmdir(spools)
    except OSError:
        pass
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


def serve(requests, protocol, run):
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
        reply = run(request)
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
