#!/usr/bin/env python3
"""Replays each fixed defect's reproduction on real `berth` commands and checks, from outside Berth, that it ends correctly.

Run through scripts/reproductions.sh, which builds the command first. See docs/reliability.md ("The defects'
reproductions") for what each scenario does. Each scenario runs in a child process of its own, in a fresh
temporary folder with its own host ledger (BERTH_HOST_DIR), under a time limit; every process it started
carries the marker variable BERTH_REPRO=<its folder> and is killed when the scenario ends, whatever happened.
Standard library only (Python 3.8+).
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BERTH = os.path.join(ROOT, "berth")
PYTHON_EXAMPLES = os.path.join(ROOT, "examples", "python")
MARK = "BERTH_REPRO"
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the checkout
from chaos_soak import Trial, parse_instant  # noqa: E402  (the soak's reading of Berth's instants, its thaw)

# The machine carries other load: no scenario but the CPU gate's lets it hold tasks back.
QUIET = {"scheduler": {"interval": "200ms"},
         "utilization-limit": {"cpu": 1.0, "memory": 1.0, "cuda-memory": 1.0},
         "remain-limit": {"memory": "256MiB", "cuda-memory": 0}}


class Failed(Exception):
    """A scenario that did not end correctly; its text is what was seen."""


def now():
    return time.time()


# ----- processes, found by the marker ------------------------------------------------------------

def marked(folder):
    """(pid, cmdline) of the live, non-zombie processes whose environment carries FOLDER's marker."""
    mark = ("%s=%s\0" % (MARK, folder)).encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open("/proc/%s/environ" % name, "rb") as f:
                if mark not in f.read() + b"\0":
                    continue
            with open("/proc/%s/stat" % name) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
            with open("/proc/%s/cmdline" % name, "rb") as f:
                found.append((int(name), f.read().decode("utf-8", "replace").rstrip("\0").replace("\0", " ")))
        except (OSError, IndexError):
            continue
    return found


def kill_marked(folder):
    """Kills every process that carries FOLDER's marker, thawing a frozen one first; returns how many."""
    left = marked(folder)
    for pid, _ in left:
        Trial.thaw(pid)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return len(left)


# ----- one scenario's folder and commands --------------------------------------------------------

class Scene:
    """A scenario's folder, environment, specs, commands and the tasks' own log."""

    def __init__(self, folder):
        self.dir = folder
        self.host = os.path.join(folder, "host")
        os.makedirs(self.host, exist_ok=True)
        self.log = os.path.join(folder, "tasks.log")
        self.env = dict(os.environ, BERTH_HOST_DIR=self.host, PYTHONDONTWRITEBYTECODE="1")
        self.env[MARK] = folder
        self.seen = []  # what was seen, in a few words each, for the table

    def note(self, text):
        self.seen.append(text.replace(self.dir + "/", ""))  # paths inside the scenario's folder, short

    def spec(self, name, tasks, groups=None, **top):
        """Writes NAME.yaml (JSON is YAML) with its workdir in the folder, TASKS in one group unless GROUPS are
        given; returns its path."""
        spec = {"name": name, "workdir": os.path.join(self.dir, name)}
        spec.update(top)
        spec.setdefault("config", QUIET)
        spec["groups"] = groups or [{"name": "g", "memory": "64MiB", "cpus": 0, "tasks": tasks}]
        path = os.path.join(self.dir, name + ".yaml")
        with open(path, "w") as out:
            json.dump(spec, out, indent=1)
        return path

    def workdir(self, name):
        return os.path.join(self.dir, name)

    def logged(self, run, seconds, result=True, before=""):
        """A task command that appends its start and its end (with time, attempt and device) to tasks.log."""
        line = 'echo "%%s %s $BERTH_TASK_ID $BERTH_ATTEMPT $(date +%%%%s.%%%%N) $BERTH_DEVICE" >> %s' % (run, self.log)
        text = "%s; %ssleep %s; " % (line % "start", before, seconds)
        if result:
            text += "echo '{}' > \"$BERTH_TASK_DIR/result.json\"; "
        return ["sh", "-c", text + line % "end"]

    def tasks_log(self):
        """[(what, run, task, attempt, time, device)] from tasks.log."""
        out = []
        try:
            with open(self.log) as f:
                for line in f:
                    p = line.split()
                    if len(p) >= 5:
                        out.append((p[0], p[1], p[2], p[3], float(p[4]), p[5] if len(p) > 5 else ""))
        except OSError:
            pass
        return out

    def starts(self, run=None, task=None):
        return [e for e in self.tasks_log() if e[0] == "start" and run in (None, e[1]) and task in (None, e[2])]

    def ends(self, run=None, task=None):
        return [e for e in self.tasks_log() if e[0] == "end" and run in (None, e[1]) and task in (None, e[2])]

    def most_alive(self):
        """The most task processes alive at once by their own log (one with no end yet lives on)."""
        points = []
        for e in self.tasks_log():
            points.append((e[4], 1 if e[0] == "start" else -1))
        points.sort(key=lambda p: (p[0], p[1]))  # an end before a start at the same instant
        alive = most = 0
        for _, d in points:
            alive += d
            most = max(most, alive)
        return most

    def start(self, name, *args):
        """Starts `berth ARGS` in the background, its output in NAME.out."""
        out = open(os.path.join(self.dir, name + ".out"), "w")
        proc = subprocess.Popen([BERTH] + list(args), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                env=self.env, cwd=self.dir, start_new_session=True)
        out.close()
        proc.name = name
        proc.began = now()
        return proc

    def finish(self, proc, timeout):
        """(exit code, output) of a command started with start; Failed when it does not end within TIMEOUT s."""
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise Failed("`berth %s` still running after %d s; output: %s" % (proc.name, timeout, self.output(proc.name)))
        return rc, self.output(proc.name)

    def berth(self, name, *args, timeout=120):
        return self.finish(self.start(name, *args), timeout)

    def output(self, name):
        with open(os.path.join(self.dir, name + ".out")) as f:
            return f.read().strip()

    def until(self, what, test, timeout, proc=None):
        """Waits until TEST() is true; Failed after TIMEOUT s, or when PROC ends first."""
        end = now() + timeout
        while now() < end:
            value = test()
            if value:
                return value
            if proc is not None and proc.poll() is not None:
                raise Failed("`berth %s` exited %d before %s; output: %s" % (
                    proc.name, proc.returncode, what, self.output(proc.name)))
            time.sleep(0.05)
        raise Failed("no %s within %d s" % (what, timeout))

    def report(self, name):
        """Task id -> the task's entry in the run's report.json."""
        with open(os.path.join(self.workdir(name), "report.json")) as f:
            report = json.load(f)
        return {t["id"]: t for g in report["groups"] for t in g["tasks"]}


def one_line(output):
    """The output's one line (a resume's own first line, `resuming NAME (...)`, aside), or None."""
    lines = [l for l in output.splitlines() if l.strip() and not l.startswith("resuming ")]
    return lines[0] if len(lines) == 1 else None


def check(condition, what):
    if not condition:
        raise Failed(what)


def short(text, n=160):
    text = " / ".join(re.sub(r"\s+", " ", l.strip()) for l in text.splitlines() if l.strip())
    return text if len(text) <= n else text[:n - 3] + "..."


def attempts(task):
    return "%s after %d attempt(s)" % (task["status"], len(task["attempts"]))


# ----- the scenarios -------------------------------------------------------------------------------

def train_oom(s):
    spec = s.spec("oom-repro", None, groups=[{
        "name": "g", "two-stage": True, "memory": "200MiB", "gpu-memory": "10GiB",
        "env": {"PYTHONPATH": PYTHON_EXAMPLES, "BERTH_DEMO_OOM_ONCE": "1"},
        "tasks": [{"id": "demo", "command": ["python3", os.path.join(PYTHON_EXAMPLES, "two_stage_demo.py")]}]}],
        gpus="sim:2x24GiB", config={"remain-limit": {"memory": "1GiB"}, "utilization-limit": {"cpu": 1.0}})
    began = now()
    rc, out = s.berth("run", "run", "--no-progress", spec, timeout=90)
    took = now() - began
    task = s.report("oom-repro")["demo"]
    calls = sum(len(a.get("trainCalls") or []) for a in task["attempts"])
    with open(os.path.join(s.workdir("oom-repro"), "g", "demo", "result.json")) as f:
        trains = json.load(f).get("trains")
    s.note("exit %d in %.0f s, %s, %d train calls (the task counted %s)" % (rc, took, attempts(task), calls, trains))
    check(rc == 0 and task["status"] == "SUCCEEDED" and calls == 2 and trains == 2, "not the expected ending")


def booked_task(s, run, seconds, gib=10, count=2, result=True):
    task = {"id": "t-{i}", "matrix": {"i": list(range(1, count + 1))}, "gpu-memory": "%dGiB" % gib,
            "command": s.logged(run, seconds, result)}
    return s.spec(run, [task], gpus="sim:1x24GiB")


def kill9_double_booking(s):
    r1, r2 = booked_task(s, "r1", 10), booked_task(s, "r2", 10)
    p2 = s.start("r2", "run", "--no-progress", r2)
    s.until("start of r2's two tasks", lambda: len(s.starts("r2")) == 2, 90, p2)
    p1 = s.start("r1", "run", "--no-progress", r1)
    os.kill(p2.pid, signal.SIGKILL)
    p2.wait()
    killed = now()
    rc, ps = s.berth("ps", "ps", "-a", timeout=60)
    r2_line = next((l for l in ps.splitlines() if " r2 " in " %s " % l), "")
    ps_in_time = len(s.ends("r2")) == 0
    s.note("`berth ps -a` %.1f s after the kill: %s" % (now() - killed, short(r2_line, 110) or "no r2 line"))
    rc1, out1 = s.finish(p1, 120)
    r1_first = min(e[4] for e in s.starts("r1")) if s.starts("r1") else None
    r2_last = max(e[4] for e in s.ends("r2")) if len(s.ends("r2")) == 2 else None
    most = s.most_alive()
    s.note("r1 exit %d, its first start %s r2's last end, at most %d tasks alive" % (
        rc1, "%+.1f s after" % (r1_first - r2_last) if r1_first and r2_last else "(unknown)", most))
    rc2, out2 = s.berth("resume-r2", "resume", "--no-progress", s.workdir("r2"), timeout=60)
    again = len(s.starts("r2")) - 2
    s.note("resume r2: exit %d, %d task(s) started again" % (rc2, again))
    check(rc == 0 and "lost, tasks live" in r2_line and "cuda:0 20 GiB" in r2_line and ps_in_time,
          "`berth ps -a` did not show r2 lost with its tasks and holds while they lived: " + ps)
    check(rc1 == 0 and most <= 2 and r1_first and r2_last and r1_first >= r2_last, "r1 booked what r2's tasks held")
    check(rc2 == 0 and again == 0, "resume of r2: " + short(out2))


def kill9_children(s):
    spec = s.spec("f", [{"id": "fork", "command": [
        "sh", "-c", "for i in $(seq 200); do sleep 303 & done; sleep 4; echo '{}' > result.json"]}])

    def sleeps():
        return sum(1 for _, c in marked(s.dir) if c == "sleep 303")

    p = s.start("f", "run", "--no-progress", spec)
    s.until("200 `sleep 303`", lambda: sleeps() >= 200, 90, p)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    time.sleep(3)
    began = now()
    rc, out = s.berth("resume", "resume", "--no-progress", s.workdir("f"), timeout=60)
    took = now() - began
    left = sleeps()
    task = s.report("f")["fork"]
    s.note("resume exit %d in %.0f s, %s, %d `sleep 303` left" % (rc, took, attempts(task), left))
    check(rc == 0 and left == 0 and task["status"] == "SUCCEEDED", "not the expected ending: " + short(out))


def ledger_deleted(s):
    r1, r2 = booked_task(s, "r1", 10), booked_task(s, "r2", 2)
    p1 = s.start("r1", "run", "--no-progress", r1)
    s.until("start of r1's two tasks", lambda: len(s.starts("r1")) == 2, 90, p1)
    for name in os.listdir(s.host):
        if name.startswith("user-") and name.endswith(".ledger"):
            os.remove(os.path.join(s.host, name))
    removed = now()
    p2 = s.start("r2", "run", "--no-progress", r2)
    time.sleep(1)
    rc, ps = s.berth("ps", "ps", timeout=60)
    r1_line = next((l for l in ps.splitlines() if " r1 " in " %s " % l), "")
    ps_in_time = len(s.ends("r1")) == 0
    s.note("`berth ps` %.1f s after the removal: %s" % (now() - removed, short(r1_line, 100) or "no r1 line"))
    rc1, _ = s.finish(p1, 90)
    rc2, _ = s.finish(p2, 90)
    r2_first = min(e[4] for e in s.starts("r2")) if s.starts("r2") else None
    r1_last = max(e[4] for e in s.ends("r1")) if len(s.ends("r1")) == 2 else None
    most = s.most_alive()
    s.note("exits %d/%d; r2's first start %s r1's last end; at most %d tasks alive" % (
        rc1, rc2, "%+.1f s after" % (r2_first - r1_last) if r2_first and r1_last else "(unknown)", most))
    check(rc == 0 and "running" in r1_line and ps_in_time, "`berth ps` did not list r1 running: " + ps)
    check(rc1 == 0 and rc2 == 0 and most <= 2, "r2 booked what r1's tasks held")


def zombie_berth(s):
    za, zb = booked_task(s, "za", 3, gib=20, count=1), booked_task(s, "zb", 1, gib=20, count=1)
    p = subprocess.Popen([BERTH, "run", "--no-progress", za], stdin=subprocess.DEVNULL,
                         stdout=open(os.path.join(s.dir, "za.out"), "w"), stderr=subprocess.STDOUT,
                         env=s.env, cwd=s.dir)
    try:
        s.until("start of za's task", lambda: s.starts("za"), 90)
        os.kill(p.pid, signal.SIGKILL)  # and no wait(): its Berth stays a zombie
        s.until("za's Berth a zombie", lambda: state_of(p.pid) == "Z", 10)
        pb = s.start("zb", "run", "--no-progress", zb)
        rc, out = s.finish(pb, 90)
        zombie = state_of(p.pid) == "Z"
    finally:
        p.wait()
    za_end = s.ends("za")[0][4] if s.ends("za") else None
    zb_start = s.starts("zb")[0][4] if s.starts("zb") else None
    gap = zb_start - za_end if za_end and zb_start else None
    s.note("zb exit %d; its task started %s za's task ended (za's Berth %s a zombie then)" % (
        rc, "%+.1f s after" % gap if gap is not None else "(unknown)", "still" if zombie else "no longer"))
    check(rc == 0 and gap is not None and 0 <= gap <= 10, "zb did not start soon after za's task: " + short(out))


def state_of(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def chattr_folder(s):
    """A folder under the scenario's where `chattr +i` works, or None."""
    for base in [s.dir, "/var/tmp", "/dev/shm"]:
        try:
            folder = tempfile.mkdtemp(prefix="berth-repro-", dir=base)
        except OSError:
            continue
        probe = os.path.join(folder, "probe")
        open(probe, "w").close()
        ok = subprocess.run(["chattr", "+i", probe], capture_output=True).returncode == 0
        subprocess.run(["chattr", "-i", probe], capture_output=True)
        if ok:
            os.remove(probe)
            return folder
        shutil.rmtree(folder, ignore_errors=True)
    return None


class Skipped(Exception):
    """A scenario that cannot run on this machine; its text says why."""


def journal_unwritable(s):
    folder = chattr_folder(s)
    if folder is None:
        raise Skipped("`chattr +i` works on no folder here (%s, /var/tmp, /dev/shm)" % s.dir)
    tasks = [{"id": "q-{i}", "matrix": {"i": [1, 2, 3]}, "priority": 9, "command": s.logged("j", 0.1)},
             {"id": "three", "command": s.logged("j", 3)},
             {"id": "ten-{i}", "matrix": {"i": [1, 2]}, "command": s.logged("j", 8)}]
    s_dir = s.dir
    s.dir = folder  # the runs' workdirs on a filesystem where chattr works
    try:
        spec = s.spec("j", tasks, config=dict(QUIET, scheduler={"interval": "200ms", "max-process": 3}))
        # A run of its own for the start with an immutable journal.db-shm: j's tasks may all have ended by then.
        other = s.spec("k", [dict(tasks[-1], command=s.logged("k", 8))])
    finally:
        s.dir = s_dir
    files = [os.path.join(folder, run, ".berth", n) for run in ("j", "k")
             for n in ("journal.db", "journal.db-wal", "journal.db-shm")]

    def chattr(flag, which):
        subprocess.run(["chattr", flag] + [f for f in which if os.path.exists(f)], capture_output=True)

    def running(name, path, run):
        """Starts `berth run PATH` and waits until both its ten-* tasks run in it."""
        since = now()
        p = s.start(name, "run", "--no-progress", path)
        s.until("start of both ten-* tasks of " + run, lambda: len(
            {e[2] for e in s.starts(run) if e[2].startswith("ten") and e[4] >= since}) == 2, 90, p)
        time.sleep(1)
        return p

    try:
        endings = []
        for phase, run, immutable in (("db+wal immutable mid-run", "j", files[:2]),
                                      ("shm immutable mid-run", "j", files[2:3]),
                                      ("shm immutable at the start", "k", files[5:6])):
            path = spec if run == "j" else other
            p = running("%s-%d" % (run, len(endings)), path, run)
            if phase.endswith("at the start"):  # a killed Berth leaves its journal.db-shm
                os.kill(p.pid, signal.SIGKILL)
                p.wait()
                chattr("+i", immutable)
                p = s.start("%s-%d-again" % (run, len(endings)), "run", "--no-progress", path)
            else:
                chattr("+i", immutable)
            rc, out = s.finish(p, 60)
            chattr("-i", files)
            endings.append((phase, rc, out))
            s.note("%s: %s" % (phase, ending_of(rc, out, s.dir)))
        rc, out = s.berth("j-rerun", "run", "--no-progress", spec, timeout=90)
        with open(os.path.join(folder, "j", "report.json")) as f:
            tasks = {t["id"]: t for g in json.load(f)["groups"] for t in g["tasks"]}
        killed = [tid for tid, t in tasks.items() for a in t["attempts"]
                  if a.get("outcome") == "FAILED" or "signal 9" in (a.get("error") or "")]
        s.note("rerun: exit %d, %d/%d SUCCEEDED, %d attempt(s) failed by signal 9" % (
            rc, sum(1 for t in tasks.values() if t["status"] == "SUCCEEDED"), len(tasks), len(killed)))
        bad = [phase for phase, code, text in endings if code != 3 or not one_line(text)]
        check(not bad, "not exit 3 with one line: " + ", ".join(bad))
        check(rc == 0 and not killed, "the rerun: " + short(out))
    finally:
        chattr("-i", files)


def ending_of(rc, out, folder):
    """Exit code and output in a few words; a JVM crash by the frame it crashed in and its first Berth frame."""
    code = 128 - rc if rc < 0 else rc
    if rc >= 0 or not os.path.exists(folder):
        line = one_line(out)
        return "exit %d, %s" % (code, "one line: " + short(line, 150) if line else "%d lines: %s" % (
            len(out.splitlines()), short(out, 150)))
    crash = [n for n in os.listdir(folder) if n.startswith("hs_err_pid")]
    frames = []
    for name in crash[-1:]:
        with open(os.path.join(folder, name)) as f:
            text = f.read()
        frames = [m.split(" at ")[0] for m in re.findall(r"(?m)^#\s+((?:SIGBUS|SIGSEGV) .*)$", text)[:1]] + \
            re.findall(r"(?m)^C  \[(.*?)\]", text)[:1] + \
            [m.split("(")[0] for m in re.findall(r"(?m)^j  (dev\.berth\.\S+)", text)[:2]]
    return "exit %d, no line of Berth's: the JVM crashed (%s)" % (code, ", in ".join(frames) or "no hs_err file")


def wal_and_mark_lost(s):
    spec = s.spec("w", [{"id": "d-{i}", "matrix": {"i": [1, 2, 3, 4]}, "command": s.logged("w", 0.2)},
                        {"id": "long", "command": s.logged("w", 30)}])
    p = s.start("w", "run", "--no-progress", spec)
    s.until("end of the four d-* tasks", lambda: len([e for e in s.ends("w") if e[2].startswith("d-")]) == 4, 90, p)
    time.sleep(1.5)  # their ends journalled
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    journal = os.path.join(s.workdir("w"), ".berth")
    removed = [n for n in ("journal.db-wal", "journal.db.committed") if os.path.exists(os.path.join(journal, n))]
    for n in removed:
        os.remove(os.path.join(journal, n))
    rc, out = s.berth("w-rerun", "run", "--no-progress", spec, timeout=60)
    again = len([e for e in s.starts("w") if e[2].startswith("d-")]) - 4
    s.note("removed %s; rerun: exit %d, %s; %d finished task(s) started again" % (
        " and ".join(removed), rc, "one line: " + short(out, 90) if one_line(out) else short(out, 90), again))
    check(rc == 2 and one_line(out) and again == 0, "not refused with one line")


def cpu_gate(s):
    spec = {}
    for name in ("quiet", "loaded"):
        with open(os.path.join(ROOT, "examples", "quickstart.yaml")) as f:
            text = f.read().replace("{spec_dir}", os.path.join(ROOT, "examples"))
        text = re.sub(r"(?m)^workdir:.*$", "workdir: " + s.workdir("qs-" + name), text)
        spec[name] = os.path.join(s.dir, "qs-%s.yaml" % name)
        with open(spec[name], "w") as out:
            out.write(text)
    began = now()
    rc0, _ = s.berth("qs-quiet", "run", "--no-progress", "--fresh", spec["quiet"], timeout=120)
    quiet = now() - began
    loops = [subprocess.Popen(["nice", "-n", "19", "python3", "-c", "while 1: pass"], env=s.env,
                              stdin=subprocess.DEVNULL) for _ in range(2)]
    try:
        time.sleep(1)
        began = now()
        rc1, out = s.berth("qs-loaded", "run", "--no-progress", "--fresh", spec["loaded"], timeout=120)
        loaded = now() - began
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    waits = longest_wait(s.report("qs-loaded"), s.workdir("qs-loaded"))
    said = [l for l in out.splitlines() if "wait" in l.lower()]
    s.note("without the loops exit %d in %.0f s, with two `nice -n 19` loops exit %d in %.0f s; longest wait %.1f s%s" % (
        rc0, quiet, rc1, loaded, waits, "; the log said: " + short(said[0], 90) if said else ""))
    check(rc0 == 0 and rc1 == 0 and loaded <= 1.5 * quiet + 10, "held back by niced load")
    check(waits <= 5 or said, "a wait over 5 s with no line saying why")


def longest_wait(tasks, workdir):
    """The longest time a task of the quickstart waited to start: from the run's start for the first group, from the
    end of the group before for the next one (groups run one after another)."""
    with open(os.path.join(workdir, "report.json")) as f:
        report = json.load(f)
    ready = parse_instant(report["startedAt"])
    longest = 0.0
    for group in report["groups"]:
        ends = []
        for t in group["tasks"]:
            for a in t["attempts"][:1]:
                longest = max(longest, parse_instant(a["startedAt"]) - ready)
            ends += [parse_instant(a["finishedAt"]) for a in t["attempts"] if a.get("finishedAt")]
        ready = max(ends) if ends else ready
    return longest


def retries_blacklist(s):
    counter = os.path.join(s.dir, "attempts")
    spec = s.spec("rb", [{"id": "flaky", "gpu-memory": "4GiB", "retries": 3, "command": [
        "sh", "-c", "n=$(cat %s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %s; "
                    "if [ $n -lt 4 ]; then echo failing on purpose >&2; exit 1; fi; echo '{}' > result.json"
                    % (counter, counter)]}], gpus="sim:1x24GiB")
    rc, out = s.berth("rb", "run", "--no-progress", spec, timeout=90)
    task = s.report("rb")["flaky"]
    last = task["attempts"][-1]["number"] if task["attempts"] else 0
    s.note("exit %d, %s (last #%d)%s" % (rc, attempts(task), last,
                                         ": " + short(task.get("error") or "", 80) if task.get("error") else ""))
    check(rc == 0 and task["status"] == "SUCCEEDED" and last == 4, "not SUCCEEDED at attempt 4")


def follow(s):
    a = s.spec("fa", [{"id": "p", "gpu-memory": "4GiB", "command": s.logged("fa", 0.5)},
                      {"id": "c", "follow": ["p"], "command": s.logged("fa", 0.1)},
                      {"id": "ts", "two-stage": True, "gpu-memory": "2GiB", "env": {"PYTHONPATH": PYTHON_EXAMPLES},
                       "command": ["python3", os.path.join(PYTHON_EXAMPLES, "two_stage_demo.py")]}],
               gpus="sim:2x24GiB")
    b = s.spec("fb", [{"id": "p1", "gpu-memory": "20GiB", "targets": [0], "command": s.logged("fb", 1)},
                      {"id": "p2", "gpu-memory": "20GiB", "targets": [1], "command": s.logged("fb", 1)},
                      {"id": "f", "follow": ["p1", "p2"], "command": s.logged("fb", 0.1)}], gpus="sim:2x24GiB")
    rca, outa = s.berth("fa", "run", "--no-progress", a, timeout=90)
    rc, status = s.berth("fa-status", "status", "--json", s.workdir("fa"), timeout=60)
    try:
        shown = {t.get("id"): t for t in json.loads(status).get("tasks", [])}
    except ValueError:
        shown = {}
    ts_device = (shown.get("ts") or {}).get("device")
    device = {e[2]: e[5] for e in s.starts("fa")}
    rcb, outb = s.berth("fb", "run", "--no-progress", b, timeout=90)
    fb = s.report("fb")
    parents = {e[2]: e[5] for e in s.starts("fb")}
    s.note("p on %s, its follower c on %s; p1 on %s and p2 on %s, their follower %s (%s); two-stage ts shown on %s" % (
        device.get("p"), device.get("c"), parents.get("p1"), parents.get("p2"), fb["f"]["status"],
        short(fb["f"].get("error") or "", 70), ts_device))
    check(rca == 0 and device.get("p", "").startswith("cuda:") and device.get("c") == device.get("p"),
          "the follower did not run on its parent's GPU: " + short(outa))
    check(rcb == 1 and fb["f"]["status"] == "UNREACHABLE" and parents.get("p1") != parents.get("p2"),
          "the follower of two GPUs did not end UNREACHABLE: " + short(outb))
    check(rc == 0 and (ts_device or "").startswith("cuda:"), "berth status --json: " + short(status, 300))


def train_segfault(s):
    script = os.path.join(s.dir, "segv.py")
    trains = os.path.join(s.dir, "trains.log")
    with open(script, "w") as out:
        out.write("import os, signal\nfrom berth_task import run_task\n\n\ndef load(ctx):\n    return {}\n\n\n"
                  "def train(state, device, ctx):\n    with open(%r, 'a') as f:\n        f.write(device + '\\n')\n"
                  "    os.kill(os.getpid(), signal.SIGSEGV)\n\n\nrun_task(load, train)\n" % trains)
    spec = s.spec("sg", [{"id": "segv", "two-stage": True, "gpu-memory": "2GiB", "retries": 0,
                          "env": {"PYTHONPATH": PYTHON_EXAMPLES}, "command": ["python3", script]}], gpus="sim:1x24GiB")
    rc, out = s.berth("sg", "run", "--no-progress", spec, timeout=90)
    task = s.report("sg")["segv"]
    with open(trains) as f:
        calls = len(f.read().split())
    s.note("exit %d, %s, %d train call(s): %s" % (rc, attempts(task), calls, short(task.get("error") or "", 80)))
    check(rc == 1 and task["status"] == "FAILED" and len(task["attempts"]) == 1 and calls == 1,
          "not one attempt ending FAILED")


def exit_while_down(s):
    spec = s.spec("x", [{"id": "t-{i}", "matrix": {"i": [1, 2, 3, 4]}, "command": s.logged("x", 2, result=False)}],
                  config=dict(QUIET, scheduler={"interval": "200ms", "max-process": 4}))
    p = s.start("x", "run", "--no-progress", spec)
    s.until("start of the four tasks", lambda: len(s.starts("x")) == 4, 90, p)
    time.sleep(1)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    s.until("end of the four tasks", lambda: len(s.ends("x")) == 4, 30)
    rc, out = s.berth("x-rerun", "run", "--no-progress", spec, timeout=90)
    tasks = s.report("x")
    good = [t for t in tasks.values() if t["status"] == "SUCCEEDED" and len(t["attempts"]) == 1]
    again = len(s.starts("x")) - 4
    s.note("rerun: exit %d, %d/4 SUCCEEDED with 1 attempt, %d started twice" % (rc, len(good), again))
    check(rc == 0 and len(good) == 4 and again == 0, "not every task SUCCEEDED once: " + short(out))


SCENARIOS = [
    ("train-oom", "exit 0 within ~30 s, 2 train calls", train_oom),
    ("kill9-double-booking", "r1 starts only after r2's tasks end; ps shows r2 lost with holds; resume r2 exit 0",
     kill9_double_booking),
    ("kill9-children", "resume exit 0 within 60 s, no `sleep 303` left", kill9_children),
    ("ledger-deleted", "at most 2 tasks alive at once; `berth ps` lists r1 running", ledger_deleted),
    ("zombie-berth", "zb starts within a few s after za's task ends", zombie_berth),
    ("journal-unwritable", "exit 3 with one line (db+wal, shm); rerun: all succeed, none killed by signal 9",
     journal_unwritable),
    ("wal-and-mark-lost", "rerun refused: exit 2, one line; nothing re-run", wal_and_mark_lost),
    ("cpu-gate", "exit 0 in about the unloaded time; a wait over 5 s is explained", cpu_gate),
    ("retries-blacklist", "SUCCEEDED at attempt 4", retries_blacklist),
    ("follow", "follower on its parent's cuda:N; two GPUs: UNREACHABLE; two-stage shown on cuda:N", follow),
    ("train-segfault", "one attempt, FAILED", train_segfault),
    ("exit-while-down", "rerun: 4 SUCCEEDED, 1 attempt each, none started twice", exit_while_down),
]


# ----- driving the scenarios -----------------------------------------------------------------------

def child(name, folder, result_path):
    """Runs one scenario in this process and writes its ending to RESULT_PATH."""
    fn = next(f for n, _, f in SCENARIOS if n == name)
    s = Scene(folder)
    ending = "ok"
    try:
        fn(s)
    except Failed as e:
        ending = "FAILED"
        s.note(str(e))
    except Skipped as e:
        ending = "SKIPPED"
        s.note(str(e))
    except Exception:  # the script's own fault: shown, never a pass
        ending = "FAILED"
        s.note("the scenario itself failed: " + traceback.format_exc().strip().splitlines()[-1])
        traceback.print_exc()
    with open(result_path, "w") as out:
        json.dump({"ending": ending, "seen": "; ".join(s.seen)}, out)


def main():
    # Started in the background of a non-interactive shell, SIGINT would be ignored here and in every
    # command started (chaos_soak.py does the same).
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="run only this scenario (may repeat): " +
                        ", ".join(n for n, _, _ in SCENARIOS))
    parser.add_argument("--timeout", type=int, default=240, help="seconds each scenario may take (default %(default)s)")
    parser.add_argument("--keep", action="store_true", help="keep every scenario's folder (a failed one's is kept anyway)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    names = [n for n, _, _ in SCENARIOS]
    for n in args.only or []:
        if n not in names:
            parser.error("unknown scenario %s (known: %s)" % (n, ", ".join(names)))
    rows, failed = [], 0
    print("| scenario | expected | seen | ending | seconds |\n| --- | --- | --- | --- | --- |", flush=True)
    for name, expected, _ in SCENARIOS:
        if args.only and name not in args.only:
            continue
        folder = tempfile.mkdtemp(prefix="berth-repro-%s-" % name)
        result = os.path.join(folder, "result.json")
        began = now()
        with open(os.path.join(folder, "scenario.log"), "w") as log:
            proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", name, folder, result],
                                    stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, **{MARK: folder}),
                                    start_new_session=True)
            try:
                proc.wait(timeout=args.timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            except BaseException:  # Ctrl-C: nothing of the scenario outlives the script
                os.killpg(proc.pid, signal.SIGKILL)
                kill_marked(folder)
                print("interrupted; the scenario's folder is kept: " + folder, file=sys.stderr)
                raise
        took = now() - began
        try:
            with open(result) as f:
                outcome = json.load(f)
        except (OSError, ValueError):
            outcome = {"ending": "FAILED", "seen": "the scenario did not end within %d s (or its process died, exit %s)"
                                                   % (args.timeout, proc.returncode)}
        left = kill_marked(folder)
        time.sleep(0.2)
        left += kill_marked(folder)  # what a dying Berth started in between
        seen = outcome["seen"] + ("; the script ended %d process(es) its killed Berths left" % left if left else "")
        ending = outcome["ending"]
        if ending == "FAILED":
            failed += 1
            seen += " (folder kept: %s)" % folder
        elif not args.keep:
            subprocess.run(["chattr", "-R", "-i", folder], capture_output=True)
            shutil.rmtree(folder, ignore_errors=True)
        print("| %s | %s | %s | %s | %.0f |" % (name, expected, seen.replace("|", "/"), ending, took), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
