"""Finding and running the ``berth`` command: the package talks to Berth through it and files only."""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading

HOW_TO_GET_IT = ("the berth command was not found: set BERTH to its path, put it on the PATH, or run from "
                 "a Berth checkout (its ./berth builds itself; it needs a JDK 17)")


class BerthError(Exception):
    """Berth refused or failed: the one line it printed (exit 2 for bad input, 3 when Berth itself failed)."""

    def __init__(self, message, exit_code=None):
        super().__init__(message)
        self.exit_code = exit_code


class BerthNotFound(BerthError):
    """No ``berth`` command could be found."""


def find_berth(explicit=None):
    """The berth command: ``explicit``, else ``$BERTH``, else ``./berth`` of a checkout, else the PATH."""
    for candidate in (explicit, os.environ.get("BERTH")):
        if candidate:
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return os.path.abspath(candidate)
            found = shutil.which(candidate)
            if found:
                return found
            raise BerthNotFound("%s is not an executable berth command; %s" % (candidate, HOW_TO_GET_IT))
    for start in (os.getcwd(), os.path.dirname(os.path.abspath(__file__))):
        launcher = _checkout_launcher(start)
        if launcher:
            return launcher
    found = shutil.which("berth")
    if found:
        return found
    raise BerthNotFound(HOW_TO_GET_IT)


def _checkout_launcher(start):
    """``berth`` at the root of a Berth checkout at or above ``start`` (its pom names the cli module)."""
    here = start
    while True:
        launcher = os.path.join(here, "berth")
        if os.path.isfile(launcher) and os.access(launcher, os.X_OK) and os.path.isfile(
                os.path.join(here, "cli", "pom.xml")):
            return launcher
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def package_root():
    """The folder that holds the ``berth`` package, which task processes must be able to import."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child_environment(extra_paths=(), env=None):
    """The environment for Berth and its tasks: this one, with the package and ``extra_paths`` importable."""
    env = dict(os.environ if env is None else env)
    paths = [package_root()] + [p for p in extra_paths if p]
    old = env.get("PYTHONPATH")
    if old:
        paths.append(old)
    seen = []
    for path in paths:
        for part in path.split(os.pathsep):
            if part and part not in seen:
                seen.append(part)
    env["PYTHONPATH"] = os.pathsep.join(seen)
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    return env


def invoke(args, berth=None, cwd=None, env=None, echo=True):
    """Runs ``berth ARGS``; returns its exit code. Its lines are shown as they come (a terminal and a
    notebook alike, through ``sys.stdout``/``sys.stderr``) unless ``echo`` is false.

    Exit 2 and 3 raise :class:`BerthError` with Berth's own line; 0 and 1 (some task failed) return.
    """
    command = [find_berth(berth)] + list(args)
    try:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as error:
        raise BerthNotFound("cannot start %s: %s; %s" % (command[0], error, HOW_TO_GET_IT)) from error
    errors = []
    pumps = [threading.Thread(target=_pump, args=(process.stdout, sys.stdout if echo else None, None), daemon=True),
             threading.Thread(target=_pump, args=(process.stderr, sys.stderr if echo else None, errors), daemon=True)]
    for pump in pumps:
        pump.start()
    try:
        code = process.wait()
    except KeyboardInterrupt:
        # Berth treats SIGINT as interrupt, not cancel: it stops its tasks and keeps the run resumable.
        process.send_signal(signal.SIGINT)
        process.wait()
        raise
    for pump in pumps:
        pump.join()
    if code in (0, 1):
        return code
    line = next((e for e in reversed(errors) if e.strip() and not e.startswith("berth: building")), "")
    if code == 2 or code == 3:
        raise BerthError(line.strip() or "berth exited with code %d" % code, code)
    raise BerthError("berth exited with code %d%s" % (code, ": " + line.strip() if line.strip() else ""), code)


def _pump(stream, sink, keep):
    for raw in iter(stream.readline, b""):
        line = raw.decode("utf-8", "replace")
        if keep is not None:
            keep.append(line)
            del keep[:-50]
        if sink is not None:
            sink.write(line)
            sink.flush()
    stream.close()


def write_spec(path, spec):
    """Writes a spec: JSON, which is YAML too, so no YAML library is needed."""
    with open(path, "w", encoding="utf-8") as out:
        json.dump(spec, out, indent=1, sort_keys=False)
        out.write("\n")
    return path
