"""Two-stage Berth tasks in Python: load on the CPU, then train on the device Berth hands over.

A training script needs three lines::

    from berth.task import run_task

    def load(ctx): ...                  # returns a state (anything); runs on the CPU
    def train(state, device, ctx): ...  # returns a dict of results; device is "cuda:N" or "cpu"

    run_task(load, train)

Under Berth (``BERTH_CONTROL`` set) the script connects to Berth's control socket, loads when Berth
says so, reports that it is waiting, and trains when Berth hands it a device; the device is the
physical one, so pass it to your framework as is (``torch.device(device)``). If training runs out
of memory (``MemoryError``, or an exception whose type name or message mentions
``OutOfMemoryError``, ``CUDA out of memory`` or ``CUBLAS_STATUS_ALLOC_FAILED``, such as
``torch.cuda.OutOfMemoryError``), the loaded state is kept and Berth may call ``train`` again,
possibly on another device. Exit codes: 0 after success, 3 after a failure, 2 when the protocol
breaks.

Run by hand, without ``BERTH_CONTROL``, it calls ``load`` then ``train(state, "cpu", ctx)`` and
prints the result as JSON: a quick way to debug a task.

``ctx.set_item(key, value)`` publishes a value to Berth at once (fedflow's ``set_item``);
``ctx.workdir``, ``ctx.task_id``, ``ctx.attempt``, ``ctx.params`` and ``ctx.dependency_dirs`` come
from Berth's environment. Standard library only; Python 3.8 or later. The wire protocol is
described in docs/protocol.md of the Berth repository. ``examples/python/berth_task.py`` re-exports
this module for scripts that still import ``berth_task``.
"""

import gc
import json
import math
import os
import queue
import socket
import sys
import threading
import time
import traceback

__all__ = ["run_task", "TaskContext", "is_out_of_memory"]

PROTOCOL = 1
EXIT_SUCCESS = 0
EXIT_PROTOCOL_ERROR = 2
EXIT_FAILED = 3

# Native libraries wrap CUDA's errors in their own types, so names and messages are the only sign.
OOM_MARKERS = ("OutOfMemoryError", "CUDA out of memory", "CUBLAS_STATUS_ALLOC_FAILED")


class TaskContext:
    """What the task knows about its run, and how it publishes items."""

    def __init__(self, env, publish):
        self.workdir = env.get("BERTH_TASK_DIR") or os.getcwd()
        self.task_id = env.get("BERTH_TASK_ID") or "local"
        try:
            self.attempt = int(env.get("BERTH_ATTEMPT") or 1)
        except ValueError:
            self.attempt = 1
        # Berth writes BERTH_PARAM_<NAME> with NAME upper-cased and other characters than letters
        # and digits as "_"; the keys here are NAME lower-cased: "lr", "batch_size", "make_data".
        self.params = _named(env, "BERTH_PARAM_", "")
        self.dependency_dirs = _named(env, "BERTH_DEP_", "_DIR")
        self._items = {}
        self._publish = publish

    def set_item(self, key, value):
        """Publishes a named value to Berth now; any JSON-like value (dict, list, str, number, bool, None)."""
        self._items[key] = value
        self._publish(str(key), value)

    def item(self, key, default=None):
        """The value last given to set_item for key."""
        return self._items.get(key, default)

    def log(self, message):
        """Writes a line to stderr, which Berth keeps in the task's stderr.log."""
        print("[%s] %s" % (self.task_id, message), file=sys.stderr, flush=True)


def _named(env, prefix, suffix):
    out = {}
    for key, value in env.items():
        if key.startswith(prefix) and key.endswith(suffix) and len(key) > len(prefix) + len(suffix):
            out[key[len(prefix):len(key) - len(suffix)].lower()] = value
    return dict(sorted(out.items()))


def is_out_of_memory(error):
    """Whether an exception, or one it was raised from, means the process ran out of memory."""
    return _oom_cause(error) is not None


def _oom_cause(error):
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, MemoryError):
            return error
        if any(marker in cls.__name__ for cls in type(error).__mro__ for marker in OOM_MARKERS):
            return error
        if any(marker in str(error) for marker in OOM_MARKERS):
            return error
        error = error.__cause__ or error.__context__
    return None


def _describe(error):
    text = str(error)
    return "%s: %s" % (type(error).__name__, text) if text else type(error).__name__


def _plain(value):
    """A value json.dumps accepts; non-finite floats become "NaN", "Infinity" and "-Infinity"."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    # numpy and torch scalars and arrays, without importing either
    for method in ("item", "tolist"):
        convert = getattr(value, method, None)
        if callable(convert):
            try:
                return _plain(convert())
            except (TypeError, ValueError, RuntimeError):
                pass
    return str(value)


def _json(value):
    return json.dumps(_plain(value), allow_nan=False, separators=(",", ":"))


def _release_memory():
    """Frees what a failed train held, so the next train starts from the loaded state only."""
    gc.collect()
    torch = sys.modules.get("torch")  # only when the task already uses it
    if torch is not None:
        try:
            torch.cuda.empty_cache()
        except Exception:  # noqa: BLE001 - a cache that cannot be emptied changes nothing here
            pass


class _Channel:
    """The task's end of the control socket: JSON lines out, commands in through a reader thread."""

    def __init__(self, path):
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._socket.connect(path)
        except OSError:
            self._socket.close()
            raise
        self._write_lock = threading.Lock()
        self._commands = queue.Queue()
        self.busy = False

    def send(self, message):
        data = (_json(message) + "\n").encode("utf-8")
        with self._write_lock:
            self._socket.sendall(data)

    def start_reader(self):
        threading.Thread(target=self._read, name="berth-control-reader", daemon=True).start()

    def _read(self):
        try:
            with self._socket.makefile("rb") as lines:
                for line in lines:
                    self._commands.put(line)
        except (OSError, ValueError):
            pass  # closed by us or by Berth: the end of the stream follows either way
        self._commands.put(None)
        if self.busy:
            # The task's code cannot be interrupted from here, and nobody waits for its result.
            print("the connection to Berth closed while the task was running; exiting", file=sys.stderr)
            sys.stderr.flush()
            sys.stdout.flush()
            os._exit(EXIT_PROTOCOL_ERROR)

    def next_line(self):
        """The next command line, or None when the channel closed."""
        return self._commands.get()

    def close(self):
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._socket.close()


def run_task(load, train, env=None):
    """Runs a two-stage task: under Berth by its commands, by hand as load then train on "cpu".

    Under Berth this ends the process with the exit code; by hand it returns the result.
    """
    env = os.environ if env is None else env
    control = env.get("BERTH_CONTROL")
    if not control:
        return _standalone(load, train, env)
    sys.exit(_controlled(load, train, env, control))


def _standalone(load, train, env):
    ctx = TaskContext(env, lambda key, value: ctx.log("item %s = %s" % (key, _json(value))))
    ctx.log("BERTH_CONTROL is not set: loading, then training on cpu")
    started = time.monotonic()
    state = load(ctx)
    ctx.log("loaded in %d ms" % ((time.monotonic() - started) * 1000))
    started = time.monotonic()
    result = train(state, "cpu", ctx)
    ctx.log("trained in %d ms" % ((time.monotonic() - started) * 1000))
    result = result if isinstance(result, dict) else {}
    print(_json(result), flush=True)
    return result


def _controlled(load, train, env, control):
    task_id = env.get("BERTH_TASK_ID")
    token = env.get("BERTH_TOKEN")
    if not task_id or not token:
        print("BERTH_CONTROL is set but BERTH_TASK_ID or BERTH_TOKEN is missing; "
              "is this process started by Berth?", file=sys.stderr)
        return EXIT_PROTOCOL_ERROR
    try:
        channel = _Channel(control)
    except OSError as error:
        print("cannot connect to Berth's control socket %s: %s" % (control, error), file=sys.stderr)
        return EXIT_PROTOCOL_ERROR
    try:
        return _Session(channel, load, train, env).run(task_id, token)
    except OSError as error:
        print("lost the connection to Berth: %s" % error, file=sys.stderr)
        return EXIT_PROTOCOL_ERROR
    finally:
        channel.close()


class _Session:
    """One connection's protocol; see docs/protocol.md for the order of messages."""

    NEW, WAITING, DONE = "NEW", "WAITING", "DONE"

    def __init__(self, channel, load, train, env):
        self.channel = channel
        self.load = load
        self.train = train
        self.ctx = TaskContext(env, self._send_item)
        self.phase = self.NEW
        self.exit_code = EXIT_SUCCESS
        self.state = None
        self.load_time_ms = 0

    def run(self, task_id, token):
        self.channel.send({"type": "hello", "task": task_id, "token": token,
                           "protocol": PROTOCOL, "pid": os.getpid()})
        self.channel.start_reader()
        while True:
            line = self.channel.next_line()
            if line is None:
                if self.phase == self.DONE:
                    return self.exit_code
                print("the connection to Berth closed before the task was told to exit", file=sys.stderr)
                return EXIT_PROTOCOL_ERROR
            try:
                command = json.loads(line.decode("utf-8"))
            except ValueError:
                return self._protocol_error("not JSON: %r" % line)
            kind = command.get("type") if isinstance(command, dict) else None
            if kind == "exit":
                return self.exit_code
            if self.phase == self.DONE:
                # Berth may have sent it before it read our last message; only exit matters now.
                self.ctx.log("ignoring %s: the task only waits for exit now" % kind)
            elif kind == "load" and self.phase == self.NEW:
                self._load()
            elif kind == "train" and self.phase == self.WAITING:
                device = command.get("device")
                if not isinstance(device, str) or not device:
                    return self._protocol_error("a train command without a device: %r" % line)
                self._train(device)
            else:
                return self._protocol_error("unexpected command %r while %s"
                                            % (kind, "not loaded" if self.phase == self.NEW else "loaded"))

    def _protocol_error(self, what):
        print("protocol error: %s" % what, file=sys.stderr)
        return EXIT_PROTOCOL_ERROR

    def _status(self, status):
        self.channel.send({"type": "status", "status": status})

    def _send_item(self, key, value):
        try:
            self.channel.send({"type": "item", "key": key, "value": value})
        except OSError as error:
            # the reader sees the closed channel and ends the process; the task need not know
            self.ctx.log("item %s not sent: %s" % (key, error))

    def _fail(self, stage, message, trace):
        self.ctx.log("failed in %s:\n%s" % (stage, trace))
        self.channel.send({"type": "exception", "stage": stage, "message": message, "traceback": trace})
        self.phase = self.DONE
        self.exit_code = EXIT_FAILED

    def _load(self):
        self._status("LOADING")
        started = time.monotonic()
        self.channel.busy = True
        try:
            self.state = self.load(self.ctx)
        except MemoryError as error:
            self.channel.busy = False
            self.ctx.log("out of memory in LOAD")
            self.channel.send({"type": "oom", "stage": "LOAD", "message": _describe(error)})
            self.phase = self.DONE
            self.exit_code = EXIT_FAILED
            return
        except Exception as error:  # noqa: BLE001 - the task's own failure, reported to Berth
            self.channel.busy = False
            self._fail("LOAD", _describe(error), traceback.format_exc())
            return
        self.channel.busy = False
        self.load_time_ms = int((time.monotonic() - started) * 1000)
        self.phase = self.WAITING
        self._status("WAITING")

    def _train(self, device):
        self._status("TRAINING")
        started = time.monotonic()
        oom_message = None
        self.channel.busy = True
        try:
            result = self.train(self.state, device, self.ctx)
            if result is None:
                result = {}
            elif not isinstance(result, dict):
                self.ctx.log("train returned a %s, not a dict; reporting an empty result" % type(result).__name__)
                result = {}
            result = _plain(result)  # a result JSON cannot express fails here, as part of train
        except Exception as error:  # noqa: BLE001 - the task's own failure, reported to Berth
            self.channel.busy = False
            cause = _oom_cause(error)
            if cause is None:
                self._fail("TRAIN", _describe(error), traceback.format_exc())
                return
            oom_message = _describe(cause)
            del cause
        self.channel.busy = False
        if oom_message is not None:
            # The exception and its frames are gone now, so collecting frees the failed attempt's memory.
            _release_memory()
            self.ctx.log("out of memory on %s; waiting for another train" % device)
            self.channel.send({"type": "oom", "stage": "TRAIN", "message": oom_message})
            self.exit_code = EXIT_FAILED  # until a later train succeeds
            self._status("WAITING")
            return
        self.channel.send({"type": "result", "result": result})
        self.channel.send({"type": "finished", "loadTimeMs": self.load_time_ms,
                           "trainTimeMs": int((time.monotonic() - started) * 1000)})
        self.phase = self.DONE
        self.exit_code = EXIT_SUCCESS
