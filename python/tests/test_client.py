"""berth.run, berth.map and berth.submit, and how Berth's errors reach Python."""

import os

import pytest

import jobs
from conftest import EASY

import berth
from berth import _command


def test_map_of_200_calls_returns_the_results_in_the_items_order():
    results = berth.map(jobs.square, range(200), cpus=0, memory="16MiB", gpus="none",
                        config=dict(EASY, **{"scheduler.max-process": 32}), echo=False)
    assert results == [i * i for i in range(200)]


def test_a_failing_call_raises_with_its_stderr_tail_or_takes_its_place():
    with pytest.raises(berth.RunFailed) as raised:
        berth.map(jobs.fail_on_three, range(5), cpus=0, memory="16MiB", gpus="none", config=EASY, echo=False)
    assert "call-3" in str(raised.value)
    assert "ValueError: three is not allowed" in str(raised.value)

    mixed = berth.map(jobs.fail_on_three, range(5), cpus=0, memory="16MiB", gpus="none", config=EASY,
                      echo=False, return_exceptions=True)
    assert mixed[:3] == [0, 1, 2] and mixed[4] == 4
    assert "three is not allowed" in str(mixed[3])


def test_submitted_calls_run_as_one_batch_and_their_futures_hold_the_returns():
    client = berth.Client(cpus=0, memory="16MiB", gpus="none", config=EASY, echo=False)
    futures = [client.submit(jobs.add, i, b=10) for i in range(4)]
    values = [f.result(timeout=300) for f in futures]
    assert [v["sum"] for v in values] == [10, 11, 12, 13]
    assert all(v["engine"] for v in values), "the calls ran in warm engines"


def test_run_returns_each_task_s_result_and_raises_with_the_failing_task_s_stderr(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "name: mixed\n"
        "workdir: %s\n"
        "config: {utilization-limit: {cpu: 1.0}, remain-limit: {memory: 1MiB}}\n"
        "groups:\n"
        "  - name: g\n"
        "    memory: 16MiB\n"
        "    cpus: 0\n"
        "    tasks:\n"
        "      - id: ok\n"
        "        command: [sh, -c, 'echo {\\\"x\\\": 1} > result.json']\n"
        "      - id: bad\n"
        "        command: [sh, -c, 'echo the disk is gone >&2; exit 4']\n" % (tmp_path / "out"))
    with pytest.raises(berth.RunFailed) as raised:
        berth.run(str(spec), echo=False)
    assert "bad: FAILED" in str(raised.value)
    assert "the disk is gone" in str(raised.value)

    results = berth.run(str(spec), echo=False, check=False)
    assert results["ok"] == {"x": 1}
    assert results.report.by_id["bad"].status == "FAILED"


def test_bad_input_raises_berth_s_one_line(tmp_path):
    with pytest.raises(berth.BerthError) as raised:
        berth.run({"name": "bad name!", "groups": []}, workdir=str(tmp_path / "out"), echo=False)
    assert raised.value.exit_code == 2
    assert "name" in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_missing_berth_command_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BERTH", str(tmp_path / "nowhere" / "berth"))
    with pytest.raises(berth.BerthNotFound) as raised:
        berth.run({"name": "x", "groups": []}, echo=False)
    assert "set BERTH" in str(raised.value)
    monkeypatch.delenv("BERTH")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_command, "__file__", str(tmp_path / "berth" / "_command.py"))
    with pytest.raises(berth.BerthNotFound) as missing:
        _command.find_berth()
    assert str(missing.value) == _command.HOW_TO_GET_IT


def test_the_checkout_s_launcher_is_found_from_inside_the_checkout(monkeypatch):
    monkeypatch.delenv("BERTH")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    monkeypatch.chdir(os.path.join(repo, "examples"))
    assert _command.find_berth() == os.path.join(repo, "berth")


def test_a_spec_given_as_a_mapping_leaves_no_file_behind(tmp_path, monkeypatch):
    spare = tmp_path / "tmp"
    spare.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(spare))
    spec = {"name": "mapped", "config": EASY,
            "groups": [{"name": "g", "memory": "16MiB", "cpus": 0, "tasks": [{"id": "t", "command": ["true"]}]}]}
    berth.run(spec, workdir=str(tmp_path / "out"), echo=False)
    with pytest.raises(berth.BerthError):
        berth.run({"name": "bad name!", "groups": []}, workdir=str(tmp_path / "bad"), echo=False)
    assert [p.name for p in spare.iterdir() if p.name.startswith("berth-spec-")] == []
