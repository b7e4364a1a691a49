"""How objects travel to a task's process."""

import sys
import types

import pytest

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
