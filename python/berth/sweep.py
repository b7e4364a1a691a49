"""Many jobs as one Berth run, each in a process of its own: the core of the Hydra launcher.

``run_jobs(jobs, settings)`` takes picklable callables (a Hydra job, or any ``functools.partial``),
makes each a Berth task with the settings' reservations (``gpus``, ``gpu_memory``, ``memory``,
``cpus``, ``retries``, ``timeout``, ``two_stage``), runs them under Berth's admission and GPU
packing in one run, and returns each job's return value in the jobs' order, or a :class:`JobFailed`
in place of a job that did not succeed. It needs no Hydra.

The run's folder keeps the jobs: calling again with the same folder and jobs resumes an interrupted
run, and reads a finished one back without running anything again.
"""

import os
import sys

from . import _payload
from ._run import nest, run_spec, spec_keys

__all__ = ["SweepSettings", "run_jobs", "JobFailed"]

#: the per-job settings that are task keys of the spec as they are (``two_stage`` is set only when true)
JOB_FIELDS = ("gpus", "gpu_memory", "memory", "cpus", "retries", "timeout")


class SweepSettings:
    """What a sweep asks of Berth. Per job: ``gpus`` (whole GPUs), ``gpu_memory`` (a share of one,
    e.g. ``4GiB``), ``memory``, ``cpus``, ``retries``, ``timeout`` (e.g. ``2h``), ``two_stage``
    (imports in a load stage on the CPU, the job itself once Berth hands it a device). For the run:
    ``devices`` (``auto``, ``none``, ``0,2``, ``sim:2x24GiB``), ``name``, ``config`` (Berth config
    keys, dotted), ``berth`` (the command), ``echo`` (show Berth's lines), ``host_ledger``, ``python``
    (the interpreter of the jobs; default this one).
    """

    FIELDS = ("gpus", "gpu_memory", "memory", "cpus", "retries", "timeout", "two_stage", "devices", "name",
              "config", "berth", "echo", "host_ledger", "python")

    def __init__(self, **values):
        unknown = sorted(set(values) - set(self.FIELDS))
        if unknown:
            raise TypeError("unknown sweep setting(s) %s; known: %s" % (", ".join(unknown), ", ".join(self.FIELDS)))
        for field in self.FIELDS:
            setattr(self, field, values.get(field))

    @classmethod
    def of(cls, settings):
        if isinstance(settings, cls):
            return settings
        return cls(**{k: v for k, v in dict(settings or {}).items() if v is not None})


class JobFailed(Exception):
    """A job that did not succeed: its Berth status and reason, and its standard error's tail."""

    def __init__(self, job_id, status, reason, stderr_tail):
        self.job_id = job_id
        self.status = status
        self.reason = reason
        self.stderr_tail = stderr_tail
        super().__init__("job %s %s%s%s" % (job_id, status, ": %s" % reason if reason else "",
                                           "\n" + stderr_tail if stderr_tail else ""))


def job_spec(job_id, payload_path, settings):
    """One job's task in the spec."""
    settings = SweepSettings.of(settings)
    two_stage = bool(settings.two_stage)
    python = settings.python or sys.executable
    task = {"id": job_id, "command": [python, "-m", "berth._worker", "staged" if two_stage else "call", payload_path]}
    task.update(spec_keys(vars(settings), JOB_FIELDS))
    if two_stage:
        task["two-stage"] = True
    return task


def run_jobs(jobs, settings=None, workdir="berth-out/sweep", ids=None):
    """Runs ``jobs`` (picklable callables without arguments) as one Berth run in ``workdir``.

    Returns, in the jobs' order, each job's return value, or a :class:`JobFailed` for a job that did
    not succeed. Bad settings raise :class:`berth.BerthError` with Berth's one line.
    """
    _payload.stop_if_reimporting()
    settings = SweepSettings.of(settings)
    jobs = list(jobs)
    ids = list(ids) if ids is not None else ["job-%d" % i for i in range(len(jobs))]
    if len(ids) != len(jobs):
        raise ValueError("%d ids for %d jobs" % (len(ids), len(jobs)))
    workdir = os.path.abspath(workdir)
    inputs = os.path.join(workdir, ".inputs")
    os.makedirs(inputs, exist_ok=True)
    tasks = []
    for job_id, job in zip(ids, jobs):
        path = _payload.dump(job, os.path.join(inputs, job_id + ".pickle"))
        tasks.append(job_spec(job_id, path, settings))
    spec = {"name": settings.name or "sweep", "workdir": workdir, "groups": [{"name": "jobs", "tasks": tasks}]}
    if settings.config:
        spec["config"] = nest(settings.config)
    report = run_spec(spec, inputs, gpus=settings.devices, host_ledger=settings.host_ledger, berth=settings.berth,
                      echo=settings.echo)
    out = []
    for job_id in ids:
        outcome = report.outcome(job_id)
        if outcome.succeeded:
            out.append(_payload.load_return(outcome.workdir))
        else:
            out.append(JobFailed(job_id, outcome.status, outcome.error, outcome.stderr_tail()))
    return out
