"""Stand-in for hydra.core.utils: run_job runs the task function in the job's folder, as Hydra's does."""
import copy
import enum
import os
from dataclasses import dataclass
from typing import Any, Optional, Sequence


class JobStatus(enum.Enum):
    UNKNOWN = 0
    COMPLETED = 1
    FAILED = 2


@dataclass
class JobReturn:
    overrides: Optional[Sequence[str]] = None
    cfg: Any = None
    hydra_cfg: Any = None
    working_dir: Optional[str] = None
    task_name: Optional[str] = None
    status: JobStatus = JobStatus.UNKNOWN
    _return_value: Any = None

    @property
    def return_value(self):
        if self.status == JobStatus.FAILED:
            raise self._return_value
        return self._return_value


def setup_globals():
    pass


def configure_log(*args, **kwargs):
    pass


def filter_overrides(overrides):
    return [o for o in overrides if not o.startswith("hydra.")]


def _select(config, key):
    node = config
    for part in key.split("."):
        node = node[part]
    if node == "${hydra.job.num}":  # the one interpolation the tests use
        return config.hydra.job.num
    return node


def run_job(task_function, config, job_dir_key, job_subdir_key, hydra_context=None, configure_logging=True):
    job_dir = os.path.join(str(_select(config, job_dir_key)), str(_select(config, job_subdir_key)))
    os.makedirs(job_dir, exist_ok=True)
    old = os.getcwd()
    os.chdir(job_dir)
    task_cfg = copy.deepcopy(config)
    del task_cfg["hydra"]
    ret = JobReturn(overrides=list(config.hydra.overrides.task), cfg=task_cfg, hydra_cfg=config.hydra,
                    working_dir=job_dir, task_name="app")
    try:
        ret._return_value = task_function(task_cfg)
        ret.status = JobStatus.COMPLETED
    except Exception as error:  # noqa: BLE001 - as Hydra: the failure is the job's return
        ret._return_value = error
        ret.status = JobStatus.FAILED
    finally:
        os.chdir(old)
    return ret
