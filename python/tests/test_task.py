"""The task side by hand, without Berth: load, then train on "cpu", the result printed as JSON."""

import json
import os
import subprocess
import sys

from conftest import REPO

from berth.task import TaskContext, is_out_of_memory, run_task


def test_a_task_script_run_by_hand_loads_trains_on_cpu_and_prints_its_result():
    env = {k: v for k, v in os.environ.items() if not k.startswith("BERTH_") and k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, os.path.join(REPO, "examples", "python", "two_stage_demo.py")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["device"] == "cpu"
    assert 2.9 < result["slope"] < 3.1
    assert "BERTH_CONTROL is not set" in done.stderr


def test_run_task_by_hand_returns_the_result_and_shows_items_on_stderr(capsys):
    def load(ctx):
        ctx.set_item("rows", 3)
        return [1, 2, 3]

    def train(state, device, ctx):
        return {"sum": sum(state), "device": device, "rows": ctx.item("rows")}

    result = run_task(load, train, env={"BERTH_PARAM_LR": "0.1"})

    assert result == {"sum": 6, "device": "cpu", "rows": 3}
    captured = capsys.readouterr()
    assert json.loads(captured.out) == result
    assert "item rows = 3" in captured.err


def test_the_context_reads_params_and_dependency_folders_from_the_environment():
    ctx = TaskContext({"BERTH_PARAM_BATCH_SIZE": "32", "BERTH_DEP_MAKE_DATA_DIR": "/d", "BERTH_ATTEMPT": "2",
                       "BERTH_TASK_ID": "t"}, lambda key, value: None)
    assert ctx.params == {"batch_size": "32"}
    assert ctx.dependency_dirs == {"make_data": "/d"}
    assert (ctx.attempt, ctx.task_id) == (2, "t")


def test_out_of_memory_is_told_by_type_message_or_cause():
    class OutOfMemoryError(RuntimeError):
        pass

    assert is_out_of_memory(MemoryError())
    assert is_out_of_memory(OutOfMemoryError("x"))
    assert is_out_of_memory(RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB"))
    try:
        try:
            raise MemoryError()
        except MemoryError as inner:
            raise ValueError("wrapped") from inner
    except ValueError as outer:
        assert is_out_of_memory(outer)
    assert not is_out_of_memory(ValueError("no"))


def test_the_old_berth_task_module_of_the_examples_is_the_package_s():
    done = subprocess.run([sys.executable, "-c", "import berth_task, berth.task; "
                           "assert berth_task.run_task is berth.task.run_task; print('same')"],
                          env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "examples", "python")),
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "same", done.stderr
