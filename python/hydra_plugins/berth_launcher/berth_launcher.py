"""Hydra's ``hydra/launcher=berth``: a multirun becomes one Berth run, each job a task.

::

    python train.py -m hydra/launcher=berth lr=0.1,0.01 seed=1,2,3 \\
        hydra.launcher.gpu_memory=4GiB hydra.launcher.devices=sim:2x24GiB

Each job runs in a process of its own under Berth's admission and GPU packing, with the launcher's
``gpus``, ``gpu_memory``, ``memory``, ``cpus``, ``retries``, ``timeout`` and ``two_stage``; a job that
runs out of memory is retried with a bigger reservation; the run's folder (``workdir``, by default
``${hydra.sweep.dir}/berth``) keeps a journal, so running the same multirun again resumes it, and
holds Berth's reports. The launcher returns Hydra's job returns in the jobs' order. The work is done
by ``berth.sweep.run_jobs``, which needs no Hydra; this module only adapts Hydra's Launcher API.
"""

import importlib
import logging
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, Optional

from hydra.core.config_store import ConfigStore
from hydra.core.singleton import Singleton
from hydra.core.utils import JobReturn, JobStatus, filter_overrides, run_job, setup_globals
from hydra.plugins.launcher import Launcher
from omegaconf import OmegaConf, open_dict

from berth.sweep import JobFailed, SweepSettings, run_jobs

log = logging.getLogger(__name__)


@dataclass
class BerthLauncherConf:
    """The launcher's settings: ``hydra.launcher.KEY=VALUE`` on the command line."""

    _target_: str = "hydra_plugins.berth_launcher.berth_launcher.BerthLauncher"
    gpus: Optional[int] = None           # whole GPUs per job, used exclusively
    gpu_memory: Optional[str] = None     # a share of one GPU per job, e.g. 4GiB: jobs are packed by it
    memory: Optional[str] = None         # host memory per job, e.g. 8GiB
    cpus: Optional[float] = None         # cores per job (Berth's default: 1)
    retries: Optional[int] = None        # retries after ordinary failures
    timeout: Optional[str] = None        # longest run of one attempt, e.g. 2h
    two_stage: bool = False              # import and load on the CPU, run once a device is free
    devices: Optional[str] = None        # the machine's GPUs: auto, none, 0,2 or sim:2x24GiB
    workdir: str = "${hydra.sweep.dir}/berth"
    name: Optional[str] = None
    berth: Optional[str] = None          # the berth command; else $BERTH, a checkout's ./berth, the PATH
    config: Dict[str, Any] = field(default_factory=dict)  # Berth config keys, e.g. scheduler.max-process


ConfigStore.instance().store(group="hydra/launcher", name="berth", node=BerthLauncherConf, provider="berth")


class FunctionRef:
    """A task function by its module and name: Hydra's decorator replaced the name's object, so
    pickle cannot find the function itself; ``resolve`` unwraps the decorator in the job's process."""

    def __init__(self, function):
        self.module = function.__module__
        self.qualname = function.__qualname__

    def resolve(self):
        module = sys.modules["__main__"] if self.module == "__main__" else importlib.import_module(self.module)
        target = module
        for part in self.qualname.split("."):
            target = getattr(target, part)
        while hasattr(target, "__wrapped__"):
            target = target.__wrapped__
        return target


class HydraJob:
    """One job of the sweep, as it travels to its process: Hydra's own ``run_job`` runs it there."""

    def __init__(self, hydra_context, task_function, sweep_config, singleton_state):
        self.hydra_context = hydra_context
        self.task_function = task_function
        self.sweep_config = sweep_config
        self.singleton_state = singleton_state

    def __call__(self):
        Singleton.set_state(self.singleton_state)
        setup_globals()
        result = run_job(hydra_context=self.hydra_context, task_function=self.task_function.resolve(),
                         config=self.sweep_config, job_dir_key="hydra.sweep.dir",
                         job_subdir_key="hydra.sweep.subdir")
        if result.status == JobStatus.FAILED and isinstance(result._return_value, BaseException):
            # Berth judges an attempt by its process: a failure ends it, so out-of-memory retries,
            # ``retries`` and the reports see it, instead of hiding inside a JobReturn.
            raise result._return_value
        return result

    @staticmethod
    def berth_result(result):
        value = getattr(result, "_return_value", None)
        return value if isinstance(value, dict) else {"return": value}


class BerthLauncher(Launcher):
    """Runs a Hydra sweep's jobs as one Berth run."""

    def __init__(self, **params):
        self.params = {k: OmegaConf.to_container(v, resolve=True) if OmegaConf.is_config(v) else v
                       for k, v in params.items()}
        self.config = None
        self.task_function = None
        self.hydra_context = None

    def setup(self, *, hydra_context, task_function, config):
        self.config = config
        self.hydra_context = hydra_context
        self.task_function = task_function

    def launch(self, job_overrides, initial_job_idx):
        setup_globals()
        assert self.config is not None and self.task_function is not None and self.hydra_context is not None
        params = dict(self.params)
        workdir = params.pop("workdir", None) or "%s/berth" % self.config.hydra.sweep.dir
        settings = SweepSettings.of(params)
        log.info("Launching %d jobs with Berth in %s", len(job_overrides), workdir)
        jobs, ids, configs = [], [], []
        state = Singleton.get_state()
        function = FunctionRef(self.task_function)
        for offset, overrides in enumerate(job_overrides):
            idx = initial_job_idx + offset
            log.info("\t#%d : %s", idx, " ".join(filter_overrides(overrides)))
            sweep_config = self.hydra_context.config_loader.load_sweep_config(self.config, list(overrides))
            with open_dict(sweep_config):
                sweep_config.hydra.job.id = "berth_job-%d" % idx
                sweep_config.hydra.job.num = idx
            jobs.append(HydraJob(self.hydra_context, function, sweep_config, state))
            ids.append("job-%d" % idx)
            configs.append((list(overrides), sweep_config))
        returns = run_jobs(jobs, settings, workdir=workdir, ids=ids)
        out = []
        for job_id, (overrides, sweep_config), value in zip(ids, configs, returns):
            if isinstance(value, JobReturn):
                out.append(value)
            else:
                error = value if isinstance(value, BaseException) else JobFailed(job_id, "FAILED", "no return", "")
                out.append(JobReturn(overrides=overrides, cfg=sweep_config, status=JobStatus.FAILED,
                                     _return_value=error))
        return out


__all__ = ["BerthLauncher", "BerthLauncherConf"]
