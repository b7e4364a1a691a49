"""Runs these tests where pytest is not installed: the few pytest features they use, standard library only.

    python3 python/tests/run_tests.py [test_file.py ...]

Fixtures (``@pytest.fixture``, autouse, generators), ``tmp_path``, ``monkeypatch``, ``capsys``,
``pytest.raises`` and ``pytest.skip``; the closing line is pytest's ``N passed, N failed``. With pytest
installed, ``python3 -m pytest python/tests`` runs the same files.
"""

import contextlib
import glob
import importlib
import inspect
import io
import os
import shutil
import sys
import tempfile
import traceback
import types
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))


class Skipped(Exception):
    pass


class _Raises:
    def __init__(self, expected):
        self.expected = expected
        self.value = None

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            raise AssertionError("DID NOT RAISE %s" % self.expected)
        if not issubclass(kind, self.expected):
            return False
        self.value = value
        return True


def _fixture(function=None, autouse=False):
    def mark(f):
        f._fixture = True
        f._autouse = autouse
        return f
    return mark(function) if callable(function) else mark


def _skip(reason=""):
    raise Skipped(reason)


def _install_pytest_shim():
    shim = types.ModuleType("pytest")
    shim.fixture = _fixture
    shim.raises = _Raises
    shim.skip = _skip
    sys.modules["pytest"] = shim


class MonkeyPatch:
    def __init__(self):
        self._undo = []

    def setenv(self, name, value):
        old = os.environ.get(name)
        os.environ[name] = value
        self._undo.append(lambda: _restore_env(name, old))

    def delenv(self, name, raising=True):
        if name not in os.environ:
            if raising:
                raise KeyError(name)
            return
        old = os.environ.pop(name)
        self._undo.append(lambda: _restore_env(name, old))

    def chdir(self, path):
        old = os.getcwd()
        os.chdir(str(path))
        self._undo.append(lambda: os.chdir(old))

    def setattr(self, target, name, value):
        old = getattr(target, name)
        setattr(target, name, value)
        self._undo.append(lambda: setattr(target, name, old))

    def setitem(self, mapping, key, value):
        missing = object()
        old = mapping.get(key, missing)
        mapping[key] = value
        self._undo.append(lambda: mapping.pop(key, None) if old is missing else mapping.__setitem__(key, old))

    def syspath_prepend(self, path):
        sys.path.insert(0, str(path))
        importlib.invalidate_caches()
        self._undo.append(lambda: sys.path.remove(str(path)) if str(path) in sys.path else None)

    def undo(self):
        while self._undo:
            self._undo.pop()()


def _restore_env(name, old):
    if old is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = old


class CaptureFixture:
    def __init__(self):
        self._out, self._err = io.StringIO(), io.StringIO()
        self._old = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = self._out, self._err

    def readouterr(self):
        out, err = self._out.getvalue(), self._err.getvalue()
        self._out.seek(0), self._out.truncate(), self._err.seek(0), self._err.truncate()
        return types.SimpleNamespace(out=out, err=err)

    def close(self):
        sys.stdout, sys.stderr = self._old


def _fixtures_of(*modules):
    found = {}
    for module in modules:
        for name, value in vars(module).items():
            if callable(value) and getattr(value, "_fixture", False):
                found[name] = value
    return found


def _run_test(test, fixtures):
    scratch = tempfile.mkdtemp(prefix="berth-pytest-")
    monkeypatch = MonkeyPatch()
    teardown = []
    values = {"tmp_path": Path(scratch), "monkeypatch": monkeypatch}

    def resolve(name):
        if name in values:
            return values[name]
        if name == "capsys":
            capture = CaptureFixture()
            teardown.append(capture.close)
            values[name] = capture
            return capture
        fixture = fixtures[name]
        args = [resolve(p) for p in inspect.signature(fixture).parameters]
        result = fixture(*args)
        if inspect.isgenerator(result):
            value = next(result)
            teardown.append(lambda: next(result, None))
        else:
            value = result
        values[name] = value
        return value

    try:
        for name, fixture in fixtures.items():
            if fixture._autouse:
                resolve(name)
        test(*[resolve(p) for p in inspect.signature(test).parameters])
    finally:
        while teardown:
            teardown.pop()()
        monkeypatch.undo()
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv):
    _install_pytest_shim()
    sys.path.insert(0, HERE)
    conftest = importlib.import_module("conftest")
    files = argv or sorted(glob.glob(os.path.join(HERE, "test_*.py")))
    passed = failed = skipped = 0
    for path in files:
        module = importlib.import_module(os.path.splitext(os.path.basename(path))[0])
        fixtures = _fixtures_of(conftest, module)
        for name, test in vars(module).items():
            if not (name.startswith("test_") and inspect.isfunction(test)):
                continue
            label = "%s::%s" % (os.path.basename(path), name)
            cwd = os.getcwd()
            try:
                _run_test(test, fixtures)
            except Skipped as reason:
                skipped += 1
                print("SKIPPED %s: %s" % (label, reason), flush=True)
            except Exception:  # noqa: BLE001 - a failed test is reported, the others still run
                failed += 1
                print("FAILED %s\n%s" % (label, traceback.format_exc()), flush=True)
            else:
                passed += 1
                print("PASSED %s" % label, flush=True)
            finally:
                with contextlib.suppress(OSError):
                    os.chdir(cwd)
    print("%d passed, %d failed%s" % (passed, failed, ", %d skipped" % skipped if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
