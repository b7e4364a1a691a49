"""A finished run as Python values, from its report.json and its tasks' folders."""

import json
import os

from ._command import BerthError

TAIL_LINES = 10


class TaskOutcome:
    """One task of a run: its report entry, with its result, items and standard error's tail."""

    def __init__(self, entry):
        self.entry = entry
        self.id = entry.get("id")
        self.group = entry.get("group")
        self.status = entry.get("status")
        self.error = entry.get("error")
        self.attempts = entry.get("attempts") or []
        self.workdir = entry.get("workdir")
        self.params = entry.get("params") or {}

    @property
    def succeeded(self):
        return self.status == "SUCCEEDED"

    @property
    def result(self):
        """What the task's result.json holds ({} when it wrote none)."""
        return read_json(self.workdir, "result.json", {})

    @property
    def items(self):
        """What the task set with set_item (items.json; {} when none)."""
        return read_json(self.workdir, "items.json", {})

    def stderr_tail(self, lines=TAIL_LINES):
        """The last lines of the latest attempt's standard error."""
        if not self.workdir:
            return ""
        try:
            with open(os.path.join(self.workdir, "stderr.log"), "rb") as log:
                log.seek(0, os.SEEK_END)
                log.seek(max(0, log.tell() - 64 * 1024))
                text = log.read().decode("utf-8", "replace")
        except OSError:
            return ""
        return "\n".join(text.rstrip("\n").split("\n")[-lines:])

    def __repr__(self):
        return "TaskOutcome(%r, %s)" % (self.id, self.status)


class RunReport:
    """A run's report.json, its tasks in the report's order."""

    def __init__(self, workdir):
        self.workdir = os.path.abspath(workdir)
        path = os.path.join(self.workdir, "report.json")
        try:
            with open(path, encoding="utf-8") as report:
                self.data = json.load(report)
        except (OSError, ValueError) as error:
            raise BerthError("the run left no readable report at %s: %s" % (path, error)) from error
        self.status = self.data.get("status")
        self.tasks = [TaskOutcome(t) for g in self.data.get("groups") or [] for t in g.get("tasks") or []]
        self.by_id = {t.id: t for t in self.tasks}

    @property
    def failures(self):
        return [t for t in self.tasks if not t.succeeded]

    def outcome(self, task_id):
        """The task's outcome; for a task the report does not list (the run stopped before it), one
        that says so."""
        found = self.by_id.get(task_id)
        if found is None:
            return TaskOutcome({"id": task_id, "status": "NOT RUN", "error": "not in the run's report"})
        return found

    def results(self):
        """Each task's result, by id, in the report's order."""
        return {t.id: t.result for t in self.tasks}


class RunFailed(BerthError):
    """Some tasks of a run did not succeed; ``failures`` are their outcomes, ``report`` the run's."""

    def __init__(self, report, failures=None):
        self.report = report
        self.failures = report.failures if failures is None else failures
        super().__init__(describe_failures(report.workdir, self.failures), 1)


def describe_failures(workdir, failures, shown=5):
    parts = ["%d task(s) of the run in %s did not succeed" % (len(failures), workdir)]
    for task in failures[:shown]:
        parts.append("%s: %s%s" % (task.id, task.status, " (%s)" % task.error if task.error else ""))
        tail = task.stderr_tail()
        if tail:
            parts.append("  " + tail.replace("\n", "\n  "))
    if len(failures) > shown:
        parts.append("... and %d more (report.md in %s)" % (len(failures) - shown, workdir))
    return "\n".join(parts)


def read_json(folder, name, default):
    """The JSON file ``name`` in ``folder``, or ``default`` when there is none or it is unreadable."""
    if not folder:
        return default
    try:
        with open(os.path.join(folder, name), encoding="utf-8") as file:
            return json.load(file)
    except (OSError, ValueError):
        return default
