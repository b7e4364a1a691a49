"""How objects travel to a task's process."""

import os
import subprocess
import sys
import types

import pytest
from conftest import PACKAGE_ROOT

from berth import _payload


def test_an_object_of_a_notebook_s_class_is_refused_in_the_caller_with_what_to_do(tmp_path, monkeypatch):
    notebook = types.ModuleType("__main__")  # an interactive session's __main__ has no __file__
    cell = type("Cell", (), {"__module__": "__main__"})
    notebook.Cell = cell
    monkeypatch.setitem(sys.modules, "__main__", notebook)
    with pytest.raises(TypeError) as refused:
        _payload.dump(cell(), str(tmp_path / "p.pickle"))
    assert "define them in a module" in str(refused.value)


def test_an_object_of_a_module_s_class_travels_without_the_caller_s_script(tmp_path):
    path = _payload.dump(types.SimpleNamespace(x=1), str(tmp_path / "p.pickle"))
    assert _payload.load(path).x == 1


def test_the_caller_s_module_folders_keep_their_order_in_the_task_s_process(tmp_path):
    for name in ("first", "second"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "twin_module.py").write_text("WHERE = %r\n\n\nclass Thing:\n    pass\n" % name)
    payload = str(tmp_path / "p.pickle")
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    caller = ("import sys; sys.path[1:1] = [%r, %r]; import twin_module; from berth import _payload; "
              "_payload.dump(twin_module.Thing(), %r)" % (str(tmp_path / "first"), str(tmp_path / "second"), payload))
    subprocess.run([sys.executable, "-c", caller], env=env, cwd=str(tmp_path), check=True, timeout=60)
    task = "import sys; from berth import _payload; _payload.load(%r); print(sys.modules['twin_module'].WHERE)" % payload
    done = subprocess.run([sys.executable, "-c", task], env=env, cwd=PACKAGE_ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "first", done.stderr
