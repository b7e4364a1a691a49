"""berth.sweep, the Hydra launcher's core: 6 jobs packed onto 2 simulated GPUs by gpu_memory."""

import functools
from datetime import datetime

import jobs
from conftest import EASY

from berth.sweep import JobFailed, SweepSettings, job_spec, run_jobs


def _seconds(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def test_six_jobs_on_two_24_gib_gpus_pack_two_per_gpu_by_gpu_memory(tmp_path):
    settings = SweepSettings(gpu_memory="8GiB", memory="32MiB", cpus=0, devices="sim:2x24GiB", config=EASY,
                             echo=False)
    work = [functools.partial(jobs.sweep_job, i, 1.5) for i in range(6)]

    returns = run_jobs(work, settings, workdir=str(tmp_path / "sweep"))

    assert [r["index"] for r in returns] == list(range(6))
    assert {r["device"] for r in returns} == {"cuda:0", "cuda:1"}
    for r in returns:
        assert r["visible"] == r["device"][len("cuda:"):], "a one-stage job sees its own GPU only"
    # 8 GiB each: two fit a 24 GiB device under utilization-limit.cuda-memory 0.8, a third does not
    import json
    report = json.loads((tmp_path / "sweep" / "report.json").read_text())
    attempts = [a for t in report["groups"][0]["tasks"] for a in t["attempts"]]
    assert all(a["reservedGpuMemoryBytes"] == 8 << 30 for a in attempts)
    for device in ("cuda:0", "cuda:1"):
        spans = [(_seconds(a["startedAt"]), _seconds(a["finishedAt"])) for a in attempts if a["device"] == device]
        peak = max(sum(1 for s, e in spans if s <= start < e) for start, _ in spans)
        assert peak <= 2, "never more than two 8 GiB jobs on one 24 GiB device"
    overall = [(_seconds(a["startedAt"]), _seconds(a["finishedAt"])) for a in attempts]
    assert max(sum(1 for s, e in overall if s <= start < e) for start, _ in overall) >= 2


def test_a_sweep_run_again_in_its_folder_reads_the_finished_jobs_back_without_running_them(tmp_path):
    settings = SweepSettings(memory="16MiB", cpus=0, devices="none", config=EASY, echo=False)
    work = [functools.partial(jobs.sweep_job, i, 0) for i in range(2)]
    first = run_jobs(work, settings, workdir=str(tmp_path / "s"))
    again = run_jobs(work, settings, workdir=str(tmp_path / "s"))
    assert [r["started"] for r in again] == [r["started"] for r in first]


def test_a_failed_job_takes_its_place_as_a_job_failed_with_its_stderr(tmp_path):
    settings = SweepSettings(memory="16MiB", cpus=0, devices="none", config=EASY, echo=False, retries=1)
    returns = run_jobs([functools.partial(jobs.fail_on_three, 3), functools.partial(jobs.square, 2)], settings,
                       workdir=str(tmp_path / "s"))
    assert returns[1] == 4
    assert isinstance(returns[0], JobFailed)
    assert "three is not allowed" in returns[0].stderr_tail
    report = (tmp_path / "s" / "report.json").read_text()
    assert report.count('"number" : 2') >= 1, "retries: 1 gave the job a second attempt"


def test_the_launcher_settings_become_task_keys():
    task = job_spec("job-0", "/p.pickle", {"gpus": 1, "memory": "4GiB", "cpus": 2, "retries": 1, "timeout": "1h",
                                           "two_stage": True, "python": "py"})
    assert task == {"id": "job-0", "command": ["py", "-m", "berth._worker", "staged", "/p.pickle"], "gpus": 1,
                    "memory": "4GiB", "cpus": 2, "retries": 1, "timeout": "1h", "two-stage": True}


def test_two_stage_jobs_import_first_and_run_on_the_device_berth_hands_them(tmp_path):
    settings = SweepSettings(gpu_memory="4GiB", memory="32MiB", cpus=0, devices="sim:2x24GiB", two_stage=True,
                             config=EASY, echo=False)
    returns = run_jobs([functools.partial(jobs.sweep_job, i, 0) for i in range(2)], settings,
                       workdir=str(tmp_path / "s"))
    for r in returns:
        assert r["device"].startswith("cuda:")
        assert r["visible"] == r["device"][len("cuda:"):]
