"""Python objects that travel to a task's process by pickling, as fedflow's tasks did.

A payload file holds where the caller's modules came from and the pickled object. An object whose
class or function lives in the caller's script (``__main__``) needs that script in the task's
process: it is run there again under the name ``__mp_main__``, as multiprocessing's spawn does, so
a script guards its own start with ``if __name__ == "__main__":``. Berth's own entry points
(``FedFlow``, ``berth.run``, ``map``, ``submit``) end that re-run where the script reaches them, its
classes and functions defined above them kept, so an unguarded fedflow script still works.
"""

import builtins
import os
import pickle
import sys
import types

from .task import _plain

#: True while a task's process runs the caller's script again to find its classes.
REIMPORTING_MAIN = False


#: how pickle (protocol 4 and later) names the module __main__ when an object's class or function is there
_MAIN_REFERENCE = b"\x8c\x08__main__"


def dump(obj, path):
    """Writes ``obj`` and what unpickling it needs to ``path``."""
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    main = sys.modules.get("__main__")
    main_file = getattr(main, "__file__", None)
    needs_main = _MAIN_REFERENCE in data
    if needs_main and not main_file:
        raise TypeError("%r refers to classes or functions defined in a notebook or an interactive session, "
                        "which a task's process cannot import: define them in a module and import it" % (obj,))
    spec = getattr(main, "__spec__", None)
    envelope = {"main": os.path.abspath(main_file) if needs_main else None,
                "package": spec.name.rpartition(".")[0] if spec is not None and spec.name else "",
                "argv": list(sys.argv), "path": caller_paths(), "data": data}
    replace_atomically(path, pickle.dumps(envelope, protocol=pickle.HIGHEST_PROTOCOL))
    return path


def caller_paths():
    """Where the caller's modules come from: its sys.path entries that are folders, the current one first."""
    out = [os.getcwd()]
    for entry in sys.path:
        if entry and os.path.isdir(entry):
            out.append(os.path.abspath(entry))
    return out


def load(path):
    """The object in a payload file, its caller's script re-run first when it needs it."""
    with open(path, "rb") as payload:
        envelope = pickle.load(payload)
    for entry in envelope.get("path") or []:  # after the process's own, in the caller's order
        if entry not in sys.path and os.path.isdir(entry):
            sys.path.append(entry)
    if envelope.get("main"):
        _reimport_main(envelope["main"], envelope.get("argv") or [envelope["main"]], envelope.get("package") or "")
    return pickle.loads(envelope["data"])


class StopReimport(BaseException):
    """Raised where a re-run caller's script reaches Berth's entry points: what it defined so far stays."""


def stop_if_reimporting():
    """Ends the re-run of the caller's script in a task's process (see the module's doc)."""
    if REIMPORTING_MAIN:
        raise StopReimport()


def _reimport_main(path, argv, package):
    global REIMPORTING_MAIN
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = sys.modules.get("__mp_main__")
    if module is not None and getattr(module, "__file__", None) == path:
        sys.modules["__main__"] = module
        return
    module = types.ModuleType("__mp_main__")
    module.__file__ = path
    module.__package__ = package  # a script run with -m keeps its relative imports
    module.__builtins__ = builtins
    sys.modules["__mp_main__"] = module
    with open(path, "rb") as source:
        code = compile(source.read(), path, "exec")
    REIMPORTING_MAIN = True
    own_argv, sys.argv = sys.argv, list(argv)  # the script reads its arguments as it did in the caller
    try:
        exec(code, module.__dict__)  # noqa: S102 - the caller's own script, as multiprocessing runs it
    except StopReimport:
        pass
    finally:
        REIMPORTING_MAIN = False
        sys.argv = own_argv
    sys.modules["__main__"] = module


def result_of(payload, value):
    """The mapping the reports show for a return value: a dict as it is, a plain value as {"value": v}."""
    summarise = getattr(payload, "berth_result", None)
    if callable(summarise):
        value = summarise(value)
    if isinstance(value, dict):
        return _plain(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": _plain(value)}
    return {}


def call_and_keep(payload, folder):
    """Calls ``payload``, keeps its return value in ``folder`` and returns its result for the reports."""
    value = payload()
    dump_return(value, folder)
    return result_of(payload, value)


def use_device(device):
    """Makes ``device`` ("cuda:N" or "cpu") the one a framework sees, before it touches CUDA."""
    os.environ["BERTH_DEVICE"] = device
    if device.startswith("cuda:"):
        os.environ["CUDA_VISIBLE_DEVICES"] = device[len("cuda:"):]
    elif device == "cpu":
        os.environ["CUDA_VISIBLE_DEVICES"] = ""


def dump_return(value, folder):
    """Keeps a task's return value beside its result.json, for the caller to read back."""
    replace_atomically(os.path.join(folder, RETURN_FILE), pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def replace_atomically(path, data):
    """Writes ``data`` to ``path`` through a temporary file, so a reader (a resumed run, the caller)
    never sees half of it."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as out:
        out.write(data)
    os.replace(tmp, path)


def load_return(folder, default=None):
    """A task's return value, or ``default`` when it left none."""
    try:
        with open(os.path.join(folder, RETURN_FILE), "rb") as file:
            return pickle.load(file)
    except (OSError, EOFError, pickle.UnpicklingError):
        return default


RETURN_FILE = "return.pickle"
