"""The Hydra launcher plugin, against a stand-in for the Hydra modules it imports (hydra_stub/).

Real Hydra is not installed where these tests run; the stand-in follows Hydra 1.3's signatures of
Launcher, run_job, JobReturn, ConfigStore and Singleton, and its own run_job runs the task function
in the job's folder.
"""

import os

import pytest

from conftest import EASY, HERE

STUB = os.path.join(HERE, "hydra_stub")


@pytest.fixture
def hydra(monkeypatch):
    try:
        import hydra as real  # noqa: F401
        if not os.path.dirname(real.__file__).startswith(STUB):
            pytest.skip("real Hydra is installed: the stand-in would shadow it")
    except ImportError:
        pass
    monkeypatch.syspath_prepend(STUB)
    from hydra_plugins.berth_launcher import berth_launcher
    return berth_launcher


def _base_config(sweep_dir):
    from omegaconf import OmegaConf
    return OmegaConf.create({"lr": 0.1, "seed": 0, "hydra": {
        "sweep": {"dir": sweep_dir, "subdir": "${hydra.job.num}"}, "job": {"id": None, "num": None}}})


def test_the_plugin_registers_hydra_launcher_berth(hydra):
    from hydra.core.config_store import ConfigStore
    entry = ConfigStore.instance().repo["hydra/launcher/berth"]
    assert entry["node"]._target_ == "hydra_plugins.berth_launcher.berth_launcher.BerthLauncher"
    assert entry["node"]().workdir == "${hydra.sweep.dir}/berth"


def test_a_multirun_of_six_jobs_becomes_one_berth_run_and_returns_hydra_s_job_returns(hydra, tmp_path):
    import hydra_app
    from hydra.core.utils import JobStatus
    from hydra.types import HydraContext

    launcher = hydra.BerthLauncher(gpu_memory="8GiB", memory="32MiB", cpus=0, devices="sim:2x24GiB",
                                   config=dict(EASY), echo=False, workdir=str(tmp_path / "sweep" / "berth"))
    launcher.setup(hydra_context=HydraContext(hydra_app.SweepLoader()), task_function=hydra_app.train.__wrapped__,
                   config=_base_config(str(tmp_path / "sweep")))
    overrides = [["lr=%s" % lr, "seed=%d" % seed] for lr in ("0.1", "0.01", "0.5") for seed in (1, 2)]

    returns = launcher.launch(overrides, initial_job_idx=0)

    assert [r.overrides for r in returns] == overrides
    assert [r.status for r in returns] == [JobStatus.COMPLETED] * 4 + [JobStatus.FAILED] * 2
    assert [(r.return_value["lr"], r.return_value["seed"]) for r in returns[:4]] == [
        (0.1, 1), (0.1, 2), (0.01, 1), (0.01, 2)]
    assert {r.return_value["device"] for r in returns[:4]} <= {"cuda:0", "cuda:1"}
    assert returns[0].return_value["cwd"] == str(tmp_path / "sweep" / "0"), "Hydra's job folder"
    with pytest.raises(Exception) as failed:
        returns[4].return_value
    assert "lr 0.5 diverges" in str(failed.value)
    assert (tmp_path / "sweep" / "berth" / "report.html").exists()
