#!/usr/bin/env python3
"""The real-process chaos soak: random kill -9, SIGTERM and SIGINT of real `berth run`s, checked from outside.

Run through scripts/chaos-soak.sh, which builds the command first. See docs/reliability.md
("Real-process chaos soak") for what each trial does and what each figure of the summary means.
Standard library only (Python 3.8+).
"""
import argparse
import datetime
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback

GIB = 1 << 30
DEVICE_BYTES = 24 * GIB
SIGNALS = [("KILL", signal.SIGKILL), ("TERM", signal.SIGTERM), ("INT", signal.SIGINT)]
EXPECTED_RC = {"TERM": 143, "INT": 130}
KINDS = ["ok", "ok", "ok", "noresult", "fail", "oom", "oom", "twostage", "twostage"]
POLL_S = 0.2
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def now():
    return time.time()


def parse_instant(text):
    if not text:
        return None
    text = text.replace("Z", "+00:00")
    if "." in text:  # Java writes up to nine digits of fraction; Python 3.8 reads six
        head, rest = text.split(".", 1)
        digits = "".join(c for c in rest if c.isdigit())
        zone = rest[len(digits):]
        text = head + "." + (digits + "000000")[:6] + zone
    return datetime.datetime.fromisoformat(text).timestamp()



def ledger_rows(host_dir):
    """The host ledger's live runs ({id: (name, state, pid)}) and GPU holds ([(run name, task, label,
    key, bytes)]), from every user's file in HOST_DIR (one row a line, fields separated by tabs)."""
    runs, holds = {}, []
    for name in sorted(os.listdir(host_dir)):
        if not (name.startswith("user-") and name.endswith(".ledger")):
            continue
        try:
            with open(os.path.join(host_dir, name)) as f:
                lines = f.read().split("\n")[1:]
        except OSError:
            continue
        fields = [unescape_fields(line.split("\t")) for line in lines if line]
        for f in fields:
            if f[0] == "run":
                runs[f[1]] = (f[3], f[7], int(f[5]))
        for f in fields:
            if f[0] == "hold" and f[3] != "host":
                holds.append((runs.get(f[1], ("?",))[0], f[2], f[4], f[3], int(f[5])))
    return runs, holds


def unescape_fields(fields):
    return [f.replace("%09", "\t").replace("%0A", "\n").replace("%0D", "\r").replace("%20", " ").replace("%25", "%")
            for f in fields]

class Trial:
    """One trial: two or three runs on one simulated device set, interrupted at random, continued to their end."""

    def __init__(self, number, args):
        self.number = number
        self.args = args
        self.rng = random.Random("%d/%d" % (args.seed, number))
        self.dir = os.path.join(args.out, "trial-%04d" % number)
        self.host_dir = os.path.join(self.dir, "host")
        self.log_dir = os.path.join(self.dir, "logs")
        self.lock = threading.Lock()
        self.events = []  # (time, run, what) of every start, signal and end of a berth command
        self.kills = {}  # run -> [times of SIGKILL]
        self.signals = {name: 0 for name, _ in SIGNALS}
        self.failures = []  # (figure, one-line reproduction)
        self.stuck = 0
        self.abandoned = set()
        self.unexpected_rc = []
        self.refused = 0
        self.over = {"ledger": 0.0, "processes": 0.0, "reports": 0.0}
        self.seen = {}  # (run, task, attempt) -> [first, last] time its main process was seen alive
        self.stop_polling = threading.Event()

    # ----- set-up ---------------------------------------------------------------------------------

    def write_specs(self):
        os.makedirs(os.path.join(self.log_dir, "marks"))
        os.makedirs(self.host_dir)
        rng = self.rng
        self.gpus = rng.choice([1, 2])
        self.runs = ["r%d" % i for i in range(1, rng.choice([2, 3, 3]) + 1)]
        self.kind = {}
        task_py = os.path.join(HERE, "chaos_task.py")
        python_dir = os.path.join(ROOT, "examples", "python")
        for run in self.runs:
            tasks = []
            for i in range(rng.randint(3, 6)):
                kind = rng.choice(self.args.kinds)
                tid = "%s-%d" % (kind, i)
                self.kind[(run, tid)] = kind
                seconds = round(rng.uniform(0.3, 2.5), 2)
                task = {"id": tid, "command": ["python3", task_py, kind, str(seconds),
                                               str(self.args.child_seconds), self.log_dir],
                        "gpu-memory": "%dGiB" % rng.choice([4, 6, 8, 10, 12])}
                if kind == "fail":
                    task.update({"retries": 1, "blacklist": False})
                if kind == "twostage":
                    task.update({"two-stage": True, "env": {"PYTHONPATH": python_dir}})
                tasks.append(task)
            spec = {"name": "%s-t%d" % (run, self.number), "workdir": os.path.join(self.dir, run),
                    "gpus": "sim:%dx24GiB" % self.gpus,
                    "config": {"scheduler": {"interval": "200ms", "max-process": 4},
                               "utilization-limit": {"cpu": 1.0, "memory": 1.0, "cuda-memory": 1.0},
                               "remain-limit": {"memory": "256MiB", "cuda-memory": 0}},
                    "groups": [{"name": "g", "memory": "64MiB", "cpus": 0, "tasks": tasks}]}
            # JSON is YAML: no YAML writer needed.
            with open(os.path.join(self.dir, run + ".yaml"), "w") as out:
                json.dump(spec, out, indent=1)

    def env(self):
        env = dict(os.environ)
        env["BERTH_HOST_DIR"] = self.host_dir
        env["BERTH_CHAOS_TRIAL"] = self.dir  # every process of the trial carries it, to be found after
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ beside berth_task.py in the checkout
        return env

    # ----- one run, interrupted and continued until it ends ---------------------------------------

    def drive(self, run):
        rng = random.Random("%d/%d/%s" % (self.args.seed, self.number, run))
        budget = rng.randint(1, 6)
        spec = os.path.join(self.dir, run + ".yaml")
        workdir = os.path.join(self.dir, run)
        segment = 0
        refused = 0
        while True:
            segment += 1
            if segment > 20:
                self.fail_stuck(run, None, "did not end after 20 commands")
                return
            # Continued as the docs say, alternately: the same `berth run SPEC`, or `berth resume WD` once
            # the run has a journal to resume.
            if segment % 2 == 1 or not os.path.exists(os.path.join(workdir, ".berth", "journal.db")):
                argv = [self.args.berth, "run", "--no-progress", spec]
            else:
                argv = [self.args.berth, "resume", "--no-progress", workdir]
            log = open(os.path.join(self.dir, "%s.%02d.log" % (run, segment)), "w")
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                    env=self.env(), cwd=self.dir, start_new_session=True)
            log.close()
            self.event(run, "start %s (pid %d)" % (" ".join(argv[1:3]), proc.pid))
            sent = None
            if budget > 0:
                began = now()
                # Most interruptions come once the command has started a task (a start-up under load can
                # take longer than a task), some at any moment of its start-up.
                if rng.random() < 0.8:
                    self.await_start(run, proc, began)
                delay = rng.uniform(0.1, self.args.max_delay)
                try:
                    proc.wait(timeout=delay)
                except subprocess.TimeoutExpired:
                    name, number = rng.choice(SIGNALS)
                    budget -= 1
                    sent = name
                    t = now()
                    proc.send_signal(number)
                    with self.lock:
                        self.signals[name] += 1
                        if name == "KILL":
                            self.kills.setdefault(run, []).append(t)
                    self.event(run, "SIG%s after %.2fs" % (name, t - began))
            rc = self.wait(proc, sent is not None)
            if rc is None:
                why = self.stuck_state(run, segment)
                proc.kill()
                proc.wait()
                self.fail_stuck(run, segment, "%s did not end %s; %s" % (" ".join(argv[1:3]), (
                    "within %ds of SIG%s" % (self.args.stuck_after, sent)) if sent else
                    "though no task of the trial started or finished for %ds" % self.args.stuck_after, why))
                return
            self.event(run, "exit %d" % rc)
            if sent in EXPECTED_RC and rc != EXPECTED_RC[sent] and rc not in (0, 1):
                self.unexpected_rc.append("trial %d %s command %d: SIG%s gave exit %d" % (
                    self.number, run, segment, sent, rc))
            if rc in (0, 1):  # the run ended; an interrupted one exits 130, 143 or by the signal
                return
            if rc == 2:
                refused += 1
                with self.lock:
                    self.refused += 1
                if refused > 5:
                    self.fail_stuck(run, segment, "refused 6 times (exit 2), see %s.%02d.log" % (run, segment))
                    return
                time.sleep(0.5)
            elif rc == 3:
                self.failures.append(("berth errors", "%s: exit 3 (%s.%02d.log)" % (self.where(run), run, segment)))

    def wait(self, proc, signalled):
        """The command's exit code, or None when it is stuck: still there --stuck-after seconds after a
        signal, or after the trial's last task start or finish (a run may wait that long for the others)."""
        begun = now()
        while True:
            try:
                return proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                pass
            since = begun
            if not signalled:
                for name in ("starts.log", "finishes.log"):
                    try:
                        since = max(since, os.stat(os.path.join(self.log_dir, name)).st_mtime)
                    except OSError:
                        pass
            if now() - since > self.args.stuck_after or now() - begun > 10 * self.args.stuck_after:
                return None

    def stuck_state(self, run, segment):
        """What a stuck run's tasks and the host ledger said just before it was killed: a short line, and
        in full in RUN.NN.stuck.json."""
        state = {}
        try:
            out = subprocess.run([self.args.berth, "status", "--json", os.path.join(self.dir, run)],
                                 capture_output=True, text=True, timeout=60, env=self.env(), cwd=self.dir)
            state["status"] = json.loads(out.stdout)
        except (OSError, ValueError, subprocess.TimeoutExpired) as e:
            state["status"] = {"error": str(e)}
        try:
            runs, holds = ledger_rows(self.host_dir)
            state["holds"] = [(r, t, label, b) for r, t, label, key, b in holds]
            state["runs"] = list(runs.values())
        except (OSError, ValueError, IndexError) as e:
            state["holds"] = str(e)
        with open(os.path.join(self.dir, "%s.%02d.stuck.json" % (run, segment)), "w") as out:
            json.dump(state, out, indent=1)
        tasks = state["status"].get("tasks") or []
        open_tasks = ["%s %s%s" % (t.get("id"), t.get("state") or t.get("status"),
                                   " (%s)" % t["reason"] if t.get("reason") else "")
                      for t in tasks if t.get("status") not in ("SUCCEEDED", "FAILED", "CANCELLED", "UNREACHABLE")]
        holds = state["holds"] if isinstance(state["holds"], list) else []
        return "its open tasks: %s; ledger holds: %s" % (
            ", ".join(open_tasks)[:400] or "none",
            ", ".join("%s/%s %s %.0f GiB" % (r, t, d, b / GIB) for r, t, d, b in holds) or "none")

    def await_start(self, run, proc, since):
        """Waits until a task of RUN starts after SINCE, the command ends, or 15 s pass (adopted tasks start nothing)."""
        path = os.path.join(self.log_dir, "starts.log")
        while now() - since < 15 and proc.poll() is None:
            try:
                with open(path) as f:
                    if any(float(p[0]) > since and p[1] == run for p in (l.split("\t") for l in f) if len(p) > 1):
                        return
            except OSError:
                pass
            time.sleep(0.05)

    def fail_stuck(self, run, segment, why):
        with self.lock:
            self.stuck += 1
            self.abandoned.add(run)
        self.failures.append(("stuck resumes", "%s: %s" % (self.where(run), why)))
        self.kill_left(lambda env: "BERTH_RUN_DIR=" + os.path.join(self.dir, run) in env, record=False)

    def event(self, run, what):
        with self.lock:
            self.events.append((now(), run, what))

    def where(self, run=None):
        return "trial %d%s (--seed %d --only %d, %s)" % (
            self.number, " " + run if run else "", self.args.seed, self.number, self.dir)

    # ----- watching from outside ------------------------------------------------------------------

    def poll(self):
        """Every POLL_S: what the host ledger holds per device, and which task processes live where."""
        last = now()
        while not self.stop_polling.wait(POLL_S):
            t = now()
            dt = min(t - last, 1.0)
            last = t
            try:
                totals = {}
                for r, task, label, key, b in ledger_rows(self.host_dir)[1] if os.path.isdir(self.host_dir) else []:
                    total, who = totals.get(key, (0, []))
                    totals[key] = (total + b, who + ["%s/%s" % (r, task)])
                for key, (total, who) in totals.items():
                    if total > DEVICE_BYTES:
                        self.over_booked("ledger", dt, "%s holds %.1f GiB of 24 GiB: %s" % (key, total / GIB, ",".join(who)))
            except (OSError, ValueError, IndexError):
                pass
            per_device = {}
            for pid, env, cmdline in self.trial_processes():
                if "chaos_task.py" not in cmdline:
                    continue
                args = cmdline.split("\0")
                if "python" not in os.path.basename(args[0]) or not args[1].endswith("chaos_task.py"):
                    continue  # a task's own process, not its children nor a wrapper around it
                run = os.path.basename(env.get("BERTH_RUN_DIR", "?"))
                key = (run, env.get("BERTH_TASK_ID", "?"), env.get("BERTH_ATTEMPT", "?"))
                with self.lock:
                    span = self.seen.setdefault(key, [t, t])
                    span[1] = t
                device = env.get("BERTH_DEVICE", "")
                if device.startswith("cuda") and "BERTH_CONTROL" not in env:
                    gib = self.declared_gib(run, key[1])
                    # One entry per attempt: a task forking its children is briefly two such processes.
                    per_device.setdefault(device, {})["%s/%s#%s" % key] = gib
            for device, held in per_device.items():
                total = sum(held.values())
                if total * GIB > DEVICE_BYTES:
                    self.over_booked("processes", dt, "%s: live tasks asked %d GiB of 24 GiB: %s" % (
                        device, total, " ".join(sorted(held))))

    def declared_gib(self, run, task):
        if not hasattr(self, "_declared"):
            self._declared = {}
            for r in self.runs:
                with open(os.path.join(self.dir, r + ".yaml")) as f:
                    for t in json.load(f)["groups"][0]["tasks"]:
                        self._declared[(r, t["id"])] = int(t["gpu-memory"][:-3])
        return self._declared.get((run, task), 0)

    def over_booked(self, source, dt, what):
        with self.lock:
            first = self.over[source] == 0
            self.over[source] += dt
        if first:
            self.failures.append(("over-booked (%s)" % source, "%s: %s" % (self.where(), what)))

    def trial_processes(self, by_folder=False):
        """The live processes that carry the trial's marker variable (or, BY_FOLDER, work in its folder)."""
        mark = "BERTH_CHAOS_TRIAL=" + self.dir
        found = []
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == os.getpid():
                continue
            try:
                with open("/proc/%s/environ" % name, "rb") as f:
                    raw = f.read().decode("utf-8", "replace")
                if mark + "\0" not in raw + "\0" and not (
                        by_folder and (os.readlink("/proc/%s/cwd" % name) + "/").startswith(self.dir + "/")):
                    continue
                with open("/proc/%s/cmdline" % name, "rb") as f:
                    cmdline = f.read().decode("utf-8", "replace").rstrip("\0")
                with open("/proc/%s/stat" % name) as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        continue
            except OSError:
                continue
            env = dict(kv.split("=", 1) for kv in raw.split("\0") if "=" in kv)
            found.append((int(name), env, cmdline))
        return found

    def kill_left(self, which, record):
        """Kills (and, when RECORD, counts) the trial's processes that WHICH selects by environment text."""
        left = []
        for pid, env, cmdline in self.trial_processes(by_folder=record):
            text = "\0".join("%s=%s" % kv for kv in env.items())
            if which(text):
                run = os.path.basename(env.get("BERTH_RUN_DIR", ""))
                whose = "of %s/%s#%s, whose run had %d SIGKILL(s)" % (
                    run, env.get("BERTH_TASK_ID"), env.get("BERTH_ATTEMPT"),
                    len(self.kills.get(run, []))) if run else "Berth"
                frozen = self.thaw(pid)
                left.append((pid, "%s (%s%s)" % (cmdline.replace("\0", " "), whose,
                                                 ", frozen in " + frozen if frozen else "")))
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        return left

    @staticmethod
    def thaw(pid):
        """Thaws the cgroup v1 freezer group PID is frozen in, if any, and names it: a Berth killed while it
        stopped a task's container froze it for good, and a frozen process cannot die of a SIGKILL."""
        try:
            with open("/proc/%d/cgroup" % pid) as f:
                group = next((l.rstrip("\n").split(":", 2)[2] for l in f if l.split(":")[1] == "freezer"), None)
            if not group or group == "/":
                return None
            state = os.path.join("/sys/fs/cgroup/freezer" + group, "freezer.state")
            with open(state) as f:
                if f.read().strip() == "THAWED":
                    return None
            with open(state, "w") as f:
                f.write("THAWED")
            return group
        except (OSError, IndexError):
            return None

    # ----- the checks after the trial ------------------------------------------------------------

    def read_lines(self, name):
        out = []
        try:
            with open(os.path.join(self.log_dir, name)) as f:
                for line in f:
                    p = line.rstrip("\n").split("\t")
                    if len(p) >= 6:
                        out.append((float(p[0]), p[1], p[2], p[3], int(p[4]), p[5]))
        except OSError:
            pass
        return out

    def check(self):
        starts, finishes = self.read_lines("starts.log"), self.read_lines("finishes.log")
        result = {"finished tasks lost": 0, "re-run": 0, "re-run (documented)": 0}
        first_finish = {}
        for f in sorted(finishes):
            first_finish.setdefault((f[1], f[2]), f)
        for key, fin in first_finish.items():
            run, task = key
            later = [s for s in starts if (s[1], s[2]) == key and s[0] > fin[0]]
            if later:
                mine = [s for s in starts if (s[1], s[2]) == key and s[4] == fin[4]]
                started = mine[0][0] if mine else fin[0]
                # Documented: an exit 0 without result.json that no live Berth saw counts as interrupted.
                # Seen means its exit mark was written, "the moment a process exits" (resume.md); a SIGKILL
                # up to 0.2 s after the exit is within that moment's reach on a loaded machine. A two-stage
                # task's result travels on its channel: one that went to a Berth killed before it read it
                # is lost, and the task runs again (resume.md).
                kills = [k for k in self.kills.get(run, []) if k >= started]
                unseen = [k for k in kills if k <= fin[0] + 0.2]
                if fin[5] in ("noresult", "twostage") and unseen:
                    result["re-run (documented)"] += 1
                    self.failures.append(("re-run (documented)", "%s: %s exited 0 %s, its run was"
                                          " SIGKILLed %.2f s %s that exit, and it started again"
                                          % (self.where(run), task, "without result.json" if fin[5] == "noresult"
                                             else "after sending its result", abs(unseen[0] - fin[0]),
                                             "after" if unseen[0] > fin[0] else "before")))
                else:
                    result["re-run"] += 1
                    mark = "%s\t0\t%s" % (fin[3], os.path.join(self.dir, run, "g", task))
                    try:
                        with open(os.path.join(self.dir, run, ".berth-exits")) as f:
                            marked = mark in f.read()
                    except OSError:
                        marked = False
                    nearest = min(kills, key=lambda k: abs(k - fin[0])) if kills else None
                    self.failures.append(("re-run", "%s: %s (%s) exited 0 (attempt %s), %s, and started again"
                                          " (attempt %s); .berth-exits %s its exit" % (
                                              self.where(run), task, fin[5], fin[3],
                                              "its run was SIGKILLed %.2f s %s that exit" % (
                                                  abs(nearest - fin[0]), "after" if nearest > fin[0] else "before")
                                              if kills else self.signal_story(run, fin[0]),
                                              later[0][3], "holds" if marked else "lacks")))
            status = self.statuses(run).get(task)
            if status != "SUCCEEDED" and run not in self.abandoned:  # a stuck run's end is unknown
                result["finished tasks lost"] += 1
                self.failures.append(("finished tasks lost", "%s: %s finished (attempt %s) but ended %s"
                                      % (self.where(run), task, fin[3], status)))
        return result

    def signal_story(self, run, around):
        with self.lock:
            story = [w for t, r, w in self.events if r == run and w.startswith("SIG") and abs(t - around) < 10]
        return ", ".join(story) or "no signal near it"

    def statuses(self, run):
        try:
            with open(os.path.join(self.dir, run, "report.json")) as f:
                report = json.load(f)
        except (OSError, ValueError):
            return {}
        return {t.get("id"): t.get("status") for t in self.report_tasks(report)}

    @staticmethod
    def report_tasks(report):
        tasks = report.get("tasks")
        if tasks is None:
            tasks = [t for g in report.get("groups", []) for t in g.get("tasks", [])]
        return tasks

    def report_over_booking(self):
        """Over-booked seconds from the reports' attempts (their train calls, for two-stage ones), each cut
        at its process's end (noted by the task, or the last moment the process was seen alive): what a
        resume settles late held nothing after its process ended."""
        changes = {}
        ended = {(r, t, n): at for at, r, t, n, _, _ in self.read_lines("ends.log")}
        for run in self.runs:
            try:
                with open(os.path.join(self.dir, run, "report.json")) as f:
                    report = json.load(f)
            except (OSError, ValueError):
                continue
            for task in self.report_tasks(report):
                for a in task.get("attempts", []):
                    spans = [(c.get("device"), c.get("reservedGpuMemoryBytes") or 0, c.get("startedAt"),
                              c.get("finishedAt")) for c in a.get("trainCalls") or []]
                    if not spans:
                        spans = [(a.get("device"), a.get("reservedGpuMemoryBytes") or 0, a.get("startedAt"),
                                  a.get("finishedAt"))]
                    key = (run, task.get("id"), str(a.get("number")))
                    # The process's end: as the task noted it, else the last moment it was seen alive.
                    gone = ended.get(key) or (self.seen[key][1] if key in self.seen else None)
                    for device, held, start, end in spans:
                        if not device or not device.startswith("cuda") or not held or not start:
                            continue
                        s, e = parse_instant(start), parse_instant(end) if end else None
                        if gone:
                            e = min(e, gone) if e else gone
                        if e is None or e <= s:
                            continue
                        who = "%s/%s#%s" % (run, task.get("id"), a.get("number"))
                        changes.setdefault(device, []).append((s, held, who))
                        changes[device].append((e, -held, who))
        for device, points in changes.items():
            points.sort(key=lambda p: (p[0], p[1]))  # releases before claims at the same instant
            total, live, previous = 0, {}, None
            for t, delta, who in points:
                if previous is not None and total > DEVICE_BYTES:
                    if self.over["reports"] == 0:
                        self.failures.append(("over-booked (reports)", "%s: %s held %.1f GiB of 24 GiB: %s" % (
                            self.where(), device, total / GIB, " ".join(sorted(live)))))
                    self.over["reports"] += t - previous
                total += delta
                if delta > 0:
                    live[who] = delta
                else:
                    live.pop(who, None)
                previous = t

    # ----- the whole trial -------------------------------------------------------------------------

    def failed_itself(self):
        self.stop_polling.set()
        self.failures.append(("soak errors", "%s: the soak itself failed (its traceback is above)" % self.where()))
        self.figures = {"trials": 1, "soak errors": 1}
        self.figures.update({"SIG" + k: v for k, v in self.signals.items()})
        self.seconds = 0.0
        self.runs = getattr(self, "runs", [])
        self.gpus = getattr(self, "gpus", 0)

    def run(self):
        began = now()
        if os.path.exists(self.dir):
            shutil.rmtree(self.dir)
        os.makedirs(self.dir)
        self.write_specs()
        poller = threading.Thread(target=self.poll, daemon=True)
        poller.start()
        drivers = [threading.Thread(target=self.drive, args=(r,)) for r in self.runs]
        for d in drivers:
            d.start()
        for d in drivers:
            d.join()
        time.sleep(1.0)  # what Berth still stops on its way out has had its chance to end
        self.stop_polling.set()
        poller.join()
        left = self.kill_left(lambda env: True, record=True)
        for pid, cmdline in left[:3]:
            self.failures.append(("processes left", "%s: pid %d %s" % (self.where(), pid, cmdline[:200])))
        if len(left) > 3:
            self.failures.append(("processes left", "%s: and %d more" % (self.where(), len(left) - 3)))
        self.report_over_booking()
        checked = self.check()
        self.figures = dict(checked, **{
            "trials": 1, "processes left": len(left), "stuck resumes": self.stuck,
            "over-booked s (ledger)": round(self.over["ledger"], 1),
            "over-booked s (processes)": round(self.over["processes"], 1),
            "over-booked s (reports)": round(self.over["reports"], 1),
            "berth errors": sum(1 for f, _ in self.failures if f == "berth errors")})
        self.figures.update({"SIG" + k: v for k, v in self.signals.items()})
        with open(os.path.join(self.dir, "trial.json"), "w") as out:
            json.dump({"figures": self.figures, "failures": self.failures, "unexpected exit codes": self.unexpected_rc,
                       "events": self.events}, out, indent=1)
        self.seconds = now() - began
        if not self.args.keep and not self.failures:
            shutil.rmtree(self.dir, ignore_errors=True)
        return self


FAILING = ["over-booked s (ledger)", "over-booked s (processes)", "over-booked s (reports)", "finished tasks lost",
           "re-run", "processes left", "stuck resumes", "berth errors", "soak errors"]


def main():
    # Started in the background of a non-interactive shell (`... &`), the soak inherits SIGINT
    # ignored, and so would every command it starts (an ignored signal stays ignored across exec):
    # its SIGINTs would do nothing. With a handler here, the commands start with the default.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="trials at once")
    parser.add_argument("--out", default="berth-out/chaos-soak")
    parser.add_argument("--only", type=int, help="run only this trial number (a failure's reproduction)")
    parser.add_argument("--stuck-after", type=int, default=60,
                        help="seconds a command may go on after its signal, or while no task of the trial starts"
                             " or finishes, before it counts as stuck")
    parser.add_argument("--max-delay", type=float, default=4.0,
                        help="latest interruption, in seconds after the command's first new task start")
    parser.add_argument("--child-seconds", type=int, default=300, help="how long each task's children sleep")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help="the task kinds drawn from, repeated to weigh them (default %(default)s)")
    parser.add_argument("--keep", action="store_true", help="keep the folders of trials that found nothing")
    parser.add_argument("--berth", default=os.path.join(ROOT, "berth"))
    args = parser.parse_args()
    args.out = os.path.abspath(args.out)
    args.kinds = args.kinds.split(",")
    unknown = set(args.kinds) - set(KINDS)
    if unknown:
        parser.error("unknown task kinds: %s (known: %s)" % (", ".join(sorted(unknown)), ", ".join(sorted(set(KINDS)))))
    os.makedirs(args.out, exist_ok=True)
    numbers = [args.only] if args.only is not None else list(range(1, args.trials + 1))
    started = now()
    done = []
    pending = list(numbers)
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not pending:
                    return
                number = pending.pop(0)
            trial = Trial(number, args)
            try:
                trial.run()
            except Exception:  # the soak's own fault: counted, so that it cannot pass silently
                traceback.print_exc()
                trial.failed_itself()
            with lock:
                done.append(trial)
                f = trial.figures
                bad = [k for k in FAILING if f.get(k)]
                print("trial %4d: %d runs on %d GPU(s), %3.0f s, signals K/T/I %d/%d/%d%s" % (
                    number, len(trial.runs), trial.gpus, trial.seconds, f["SIGKILL"], f["SIGTERM"], f["SIGINT"],
                    ("  FOUND " + ", ".join(bad)) if bad else ""), flush=True)

    workers = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    totals = {}
    for trial in done:
        for k, v in trial.figures.items():
            totals[k] = round(totals.get(k, 0) + v, 1)
    totals["interruptions"] = totals.get("SIGKILL", 0) + totals.get("SIGTERM", 0) + totals.get("SIGINT", 0)
    rows = ["trials", "interruptions", "SIGKILL", "SIGTERM", "SIGINT"] + FAILING + ["re-run (documented)"]
    lines = ["| figure | value |", "| --- | --- |"] + ["| %s | %s |" % (k, totals.get(k, 0)) for k in rows]
    failures = sorted((f for t in done for f in t.failures), key=lambda f: f[0])
    unexpected = [u for t in done for u in t.unexpected_rc]
    text = "\n".join(["chaos soak: seed %d, %d trials, %d jobs, %.0f s" % (
        args.seed, len(done), args.jobs, now() - started), ""] + lines)
    if failures:
        text += "\n\nfailures (one line each; the trial's folder keeps its specs, logs and trial.json):\n"
        text += "\n".join("- [%s] %s" % f for f in failures)
    if unexpected:
        text += ("\n\nexit codes other than 143 for SIGTERM or 130 for SIGINT (negative: the command died of the"
                 " signal before Berth handled signals, in its start-up):\n") + "\n".join("- " + u for u in unexpected)
    print("\n" + text)
    with open(os.path.join(args.out, "summary.md"), "w") as out:
        out.write(text + "\n")
    with open(os.path.join(args.out, "summary.json"), "w") as out:
        json.dump({"seed": args.seed, "totals": totals, "failures": failures, "unexpected exit codes": unexpected},
                  out, indent=1)
    sys.exit(1 if any(totals.get(k) for k in FAILING) else 0)


if __name__ == "__main__":
    main()
