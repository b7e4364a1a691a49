"""berth.fedflow: a fedflow script runs on Berth by changing its imports."""

import json
import os
import pickle
import subprocess
import sys

from conftest import PACKAGE_ROOT

from berth.fedflow import Config, FedFlow, Task, TaskGroup, TaskStatus, _parse_simple_yaml

HERE = os.path.dirname(os.path.abspath(__file__))


def _run_script(tmp_path, out):
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    done = subprocess.run([sys.executable, os.path.join(HERE, "scripts", "fedflow_rounds.py"), str(out),
                           "sim:2x24GiB", str(tmp_path / "run")], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(out.read_text())


def test_a_fedflow_script_runs_its_groups_in_order_retries_both_ooms_and_gets_results_back(tmp_path):
    tasks = _run_script(tmp_path, tmp_path / "summary.json")

    for client in ("c0", "c1", "c2", "c3"):
        assert tasks[client]["status"] == "EXITED", tasks[client]
        assert tasks[client]["epochs"] == 2, "set_item reached the caller's task object"
        assert tasks[client]["result"]["device"].startswith("cuda:")
        assert tasks[client]["group_result"]["train_time"] >= 0
    assert tasks["c3"]["result"]["sum"] == sum(range(30, 40))
    assert tasks["c1"]["load_numbers"] == 2, "the load out of memory started the task again"
    assert tasks["c2"]["train_numbers"] == 2, "the train out of memory trained again in the same process"
    assert tasks["c0"]["load_numbers"] == 1 and tasks["c0"]["train_numbers"] == 1
    assert tasks["c0"]["workdir"] == str(tmp_path / "run" / "round-1" / "c0")

    last_client_end = max(tasks[c]["result"]["ended"] for c in ("c0", "c1", "c2", "c3"))
    assert tasks["mean"]["result"]["loaded"] > last_client_end, "the second group started after the first ended"
    assert tasks["broken"]["status"] == "EXCEPTION"
    assert tasks["broken"]["group_result"]["stage"] == "train"
    assert "ValueError: nothing to aggregate" in tasks["broken"]["group_result"]["message"]
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert [g["name"] for g in report["groups"]] == ["round-1", "aggregate-1"]

    again = _run_script(tmp_path, tmp_path / "again.json")
    assert again == tasks, "the same script in the same folder reads the finished flow back, running nothing"


def test_fedflow_config_keys_become_berth_s_and_seconds_become_durations():
    Config.clear()
    try:
        Config.set_property("scheduler.interval", 60)
        Config.set_property("scheduler.max-process", 4)
        Config.set_property("workdir", "/somewhere")
        Config.set_property("utilization-limit.cpu", 1.01)
        assert Config.berth_config() == {"scheduler": {"interval": "60s", "max-process": 4},
                                         "utilization-limit": {"cpu": 1.0}}
        assert Config.get_property("workdir") == "/somewhere"
    finally:
        Config.clear()


def test_a_fedflow_config_yaml_is_read_without_a_yaml_library():
    text = ("workdir: runs   # where\nscheduler:\n  max-process: 20\n  interval: 1\n  default-memory: 2GB\n"
            "utilization-limit:\n  cpu: 0.8\nsmtp:\n  receiver: [a@b.c, d@e.f]\n  enable: false\n")
    assert _parse_simple_yaml(text, "config.yaml") == {
        "workdir": "runs", "scheduler": {"max-process": 20, "interval": 1, "default-memory": "2GB"},
        "utilization-limit": {"cpu": 0.8}, "smtp": {"receiver": ["a@b.c", "d@e.f"], "enable": False}}


class _Plain(Task):
    def load(self):
        pass

    def train(self, device):
        return {}


def test_a_task_travels_by_pickle_without_its_channel_and_keeps_fedflow_s_defaults():
    task = _Plain(estimate_memory="1GB")
    task._context = object()
    copy = pickle.loads(pickle.dumps(task))
    assert copy._context is None
    assert copy.status == TaskStatus.INIT and copy.load_numbers == 0 and copy.result == {}
    assert len(copy.task_id) == 36, "a uuid when no id is given"
    group = TaskGroup()
    group.add_task(copy)
    assert group.get_task(copy.task_id) is copy
    assert group.group_name.startswith("group-")


def test_unknown_fedflow_options_are_refused_with_the_known_ones():
    try:
        FedFlow(gpu="sim:1x8GiB")
    except TypeError as error:
        assert "gpu" in str(error) and "gpus" in str(error)
    else:
        raise AssertionError("expected a TypeError")


def test_groups_queued_with_add_group_run_in_order_on_start_and_execute_task_runs_one(tmp_path):
    import jobs
    from conftest import EASY

    first, second = TaskGroup("queued-1"), TaskGroup("queued-2")
    for i in range(2):
        first.add_task(jobs.Stamp("a%d" % i, estimate_memory="16MiB"))
    second.add_task(jobs.Stamp("a0", estimate_memory="16MiB"))  # fedflow's ids are unique in a group only
    FedFlow.add_group(first)
    FedFlow.add_group(second)

    FedFlow.start(gpus="none", workdir=str(tmp_path / "queued"), config=EASY, echo=False)

    assert all(t.status == TaskStatus.EXITED for t in first.tasks + second.tasks)
    assert second.get_task("a0").result["loaded"] > max(t.result["ended"] for t in first.tasks)
    assert second.get_task("a0").workdir.endswith("/queued-2/queued-2.a0")
    assert first.get_task("a0").workdir.endswith("/queued-1/a0")
    assert first.get_task("a0").result["device"] == "cpu", "gpus none: every task trains on the CPU"

    single = jobs.Stamp(7, estimate_memory="16MiB")
    with FedFlow(gpus="sim:1x8GiB", workdir=str(tmp_path / "single"), config=EASY, echo=False) as flow:
        flow.execute_task(single)
    assert single.status == TaskStatus.EXITED and single.result["device"] == "cuda:0"
    assert single.workdir.endswith("/task-7/7")
