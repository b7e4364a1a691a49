"""The real-GPU proof's sizes, specs, checks and table (scripts/gpu-proof.sh runs it; standard library only).

Every size comes from the device's own total and free memory, read from nvidia-smi when the proof
starts, so the same proof runs on a 24 GiB card and on a 141 GiB one. Each check reads what Berth
wrote (``berth devices --json``, report.json, a task's logs), decides PASS or FAIL, and writes its
verdict with the figures to ``OUTDIR/checks/<name>.json``; ``table`` gathers them into the table
printed at the end and written to ``OUTDIR/table.md``.

    python3 proof.py plan SMI_CSV INDEX OUTDIR           # sizes, as plan.json and shell assignments
    python3 proof.py spec KIND OUTDIR                      # the spec of a part: packing, foreign, oom, learning
    python3 proof.py check-devices OUTDIR                  # and check-packing, check-foreign, check-oom, check-learning
    python3 proof.py table OUTDIR                          # exit 1 when a check failed or did not run
"""

import csv
import io
import json
import os
import re
import sys
from datetime import datetime, timezone

from cuda_hold import GIB, MIB, gib  # the allocator beside this file

# remain-limit.cuda-memory in every spec of the proof: what Berth keeps free on the device.
FLOOR = 512 * MIB
PACKING_FIT = 6  # tasks that fit on the device at once in the packing sweep
LEARNING_TASKS = 12
LEARNING_PARALLEL = 3
OOM_GROWTH = 1.5  # scheduler.oom-growth's default
LEARN_FACTOR = 1.2
# Below this the parts' sizes collide: the out-of-memory part alone needs 6 GiB beside the floor.
MIN_FREE = 8 * GIB

CHECKS = (("devices", "berth devices against nvidia-smi"),
          ("packing", "packing sweep on real allocations"),
          ("oom", "real CUDA_ERROR_OUT_OF_MEMORY retried bigger"),
          ("foreign", "a foreign process is counted"),
          ("learning", "learned GPU requests (sweep of %d)" % LEARNING_TASKS))


# ---------------------------------------------------------------------------------------------
# Sizes


def mib_floor(n):
    return int(n) // MIB * MIB


def mib_ceil(n):
    return -(-int(n) // MIB) * MIB


def parse_smi_csv(text):
    """The rows of ``nvidia-smi --query-gpu=index,uuid,name,memory.total,memory.free,driver_version
    --format=csv``: index, uuid, name, total and free (bytes, None when unknown) and driver."""
    rows = list(csv.reader(io.StringIO(text.strip()), skipinitialspace=True))
    if not rows:
        raise ValueError("nvidia-smi printed nothing")
    header = [h.strip().split(" ")[0] for h in rows[0]]
    wanted = ["index", "uuid", "name", "memory.total", "memory.free", "driver_version"]
    if any(w not in header for w in wanted):
        raise ValueError("nvidia-smi header %r lacks one of %s" % (rows[0], ", ".join(wanted)))
    gpus = []
    for row in rows[1:]:
        if not row or not "".join(row).strip():
            continue
        if len(row) != len(header):
            raise ValueError("nvidia-smi line %r: %d fields for %d columns" % (row, len(row), len(header)))
        f = {h: v.strip() for h, v in zip(header, row)}
        gpus.append({"index": int(f["index"]), "uuid": f["uuid"], "name": f["name"],
                     "total": _smi_mib(f["memory.total"]), "free": _smi_mib(f["memory.free"]),
                     "driver": f["driver_version"]})
    return gpus


def _smi_mib(field):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*(MiB)?", field.strip())
    return int(round(float(m.group(1)) * MIB)) if m else None


def plan(gpu):
    """The proof's sizes for one device (an entry of parse_smi_csv), all in bytes.

    packing: PACKING_FIT tasks fit at once and one more does not (each takes what is free, less
        the floor, over PACKING_FIT + 1/2), twice as many tasks as fit; each holds its reservation
        minus a margin for its CUDA context.
    foreign: a holder outside Berth takes half of what is free; two tasks of 3/10 each would fit
        together beside nothing, and only one at a time beside the holder.
    oom: tasks reserve R and need more than the holder leaves free (R plus some), so the driver
        refuses them past their reservation; the retry's reservation (R x oom-growth, or 1.2 x the
        peak) holds what they need once the holder is gone.
    learning: LEARNING_TASKS tasks declare D and use a quarter of it, LEARNING_PARALLEL at a time.
    """
    total, free = gpu["total"], gpu["free"]
    if not total or not free:
        raise ValueError("GPU %s: nvidia-smi gives no total or free memory" % gpu["index"])
    usable = free - FLOOR
    pack = mib_floor(usable / (PACKING_FIT + 0.5))
    # From the free memory rather than the total: the same on an idle device, and still sound on a busy one.
    oom = mib_floor(max(min(4 * GIB, free / 4), free / 16))
    oom_slack = mib_floor(max(oom / 4, 1.5 * GIB))
    declared = mib_floor(max(2 * GIB, free / 16))
    p = {
        "index": gpu["index"], "name": gpu["name"], "uuid": gpu["uuid"], "driver": gpu["driver"],
        "total": total, "free": free, "floor": FLOOR,
        "pack_reserve": pack, "pack_margin": mib_floor(min(GIB, pack / 4)), "pack_fit": PACKING_FIT,
        "pack_tasks": 2 * PACKING_FIT,
        "foreign_hold": mib_floor(free / 2), "foreign_reserve": mib_floor(free * 0.3),
        "oom_reserve": oom, "oom_leave": oom + oom_slack, "oom_need": oom + oom_slack + 512 * MIB,
        "learn_declared": declared, "learn_use": mib_floor(declared / 4),
        "learn_tasks": LEARNING_TASKS, "learn_parallel": LEARNING_PARALLEL,
    }
    p["foreign_margin"] = mib_floor(min(GIB, p["foreign_reserve"] / 4))
    if free < MIN_FREE:
        raise ValueError("GPU %s: %s free is too little for the proof, which needs %s" % (
            gpu["index"], gib(free), gib(MIN_FREE)))
    return p


# ---------------------------------------------------------------------------------------------
# Specs


def spec(kind, p, workdir, hold):
    """The YAML spec of one part of the proof; ``hold`` is cuda_hold.py's absolute path."""
    head = [
        "name: gpu-proof-%s" % kind,
        "workdir: %s" % json.dumps(workdir),
        "config:",
        "  scheduler: {interval: 200ms, learn-gpu-memory: \"%s\"%s}" % (
            "on" if kind == "learning" else "off",
            ", max-process: %d" % p["learn_parallel"] if kind == "learning" else ""),
        "  utilization-limit: {cpu: 1.0, cuda-memory: 1.0}",
        "  remain-limit: {cuda-memory: %d}" % FLOOR,
        "groups:",
        "  - name: %s" % kind,
        "    memory: 512MiB",
        "    cpus: 0",
        "    tasks:",
    ]
    py = json.dumps("python3")
    if kind == "packing":
        tasks = [
            '      - id: "pack-{i}"',
            "        matrix: {i: [%s]}" % ", ".join(str(i) for i in range(1, p["pack_tasks"] + 1)),
            "        gpu-memory: %d" % p["pack_reserve"],
            "        command: [%s, %s, --margin, \"%d\", --seconds, \"4\"]" % (py, json.dumps(hold), p["pack_margin"]),
        ]
    elif kind == "foreign":
        tasks = [
            '      - id: "beside-{i}"',
            "        matrix: {i: [1, 2]}",
            "        gpu-memory: %d" % p["foreign_reserve"],
            "        command: [%s, %s, --margin, \"%d\", --seconds, \"3\"]" % (py, json.dumps(hold), p["foreign_margin"]),
        ]
    elif kind == "oom-one":
        tasks = [
            "      - id: oom-one",
            "        gpu-memory: %d" % p["oom_reserve"],
            "        blacklist: false",
            "        command: [%s, %s, --bytes, \"%d\", --seconds, \"2\"]" % (py, json.dumps(hold), p["oom_need"]),
        ]
    elif kind == "oom-two":
        tasks = [
            "      - id: oom-two",
            "        gpu-memory: %d" % p["oom_reserve"],
            "        blacklist: false",
            "        two-stage: true",
            "        command: [%s, %s, --two-stage, --bytes, \"%d\", --seconds, \"2\"]" % (
                py, json.dumps(hold), p["oom_need"]),
        ]
    elif kind == "learning":
        tasks = [
            '      - id: "learn-{i}"',
            "        matrix: {i: [%s]}" % ", ".join(str(i) for i in range(1, p["learn_tasks"] + 1)),
            "        gpu-memory: %d" % p["learn_declared"],
            "        command: [%s, %s, --bytes, \"%d\", --seconds, \"2\"]" % (py, json.dumps(hold), p["learn_use"]),
        ]
    else:
        raise ValueError("no spec of kind %r" % kind)
    return "\n".join(head + tasks) + "\n"


# ---------------------------------------------------------------------------------------------
# Reading what Berth wrote


def instant(text):
    """A report.json instant (``2026-11-29T05:08:35.402Z``, fraction optional) as seconds."""
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z", text)
    if not m:
        raise ValueError("not an instant: %r" % (text,))
    whole = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc).timestamp()
    return whole + (float(m.group(2)) if m.group(2) else 0.0)


def tasks(report):
    return [t for g in report["groups"] for t in g["tasks"]]


def attempts(report):
    return [a for t in tasks(report) for a in t["attempts"]]


def task(report, task_id):
    for t in tasks(report):
        if t["id"] == task_id:
            return t
    raise KeyError("report.json has no task %s" % task_id)


def overlap(attempt_list):
    """(most attempts running at once, most GPU memory reserved at once) over the attempts' spans.

    An attempt that ends at the instant another starts does not overlap it.
    """
    events = []
    for a in attempt_list:
        if a.get("startedAt") and a.get("finishedAt"):
            events.append((instant(a["startedAt"]), 1, a["reservedGpuMemoryBytes"]))
            events.append((instant(a["finishedAt"]), 0, a["reservedGpuMemoryBytes"]))
    running = reserved = most = most_reserved = 0
    for _, starts, size in sorted(events):
        if starts:
            running += 1
            reserved += size
            most = max(most, running)
            most_reserved = max(most_reserved, reserved)
        else:
            running -= 1
            reserved -= size
    return most, most_reserved


def device_entry(devices_json, index):
    for d in devices_json.get("devices", []):
        if d.get("index") == index:
            return d
    return None


# ---------------------------------------------------------------------------------------------
# Checks: each returns (passed, figures, details)


def _verdict(failures, figures, details):
    return (not failures, figures + ("" if not failures else "; FAILED: " + "; ".join(failures)), details)


def check_devices(p, smi, devices_json, devices_text):
    """berth devices (text and JSON) against nvidia-smi: NVML found, the same GPUs, total, free."""
    failures = []
    if devices_json.get("source") != "nvml":
        failures.append("source is %r, not nvml (%s)" % (devices_json.get("source"), devices_json.get("error")))
    berth_indices = sorted(d["index"] for d in devices_json.get("devices", []))
    smi_indices = sorted(g["index"] for g in smi)
    if berth_indices != smi_indices:
        failures.append("GPUs %s, nvidia-smi has %s" % (berth_indices, smi_indices))
    for g in smi:
        d = device_entry(devices_json, g["index"])
        if d is None:
            continue
        if d["uuid"] != g["uuid"] or d["name"] != g["name"]:
            failures.append("cuda:%d is %s %s, nvidia-smi says %s %s" % (g["index"], d["name"], d["uuid"], g["name"],
                                                                         g["uuid"]))
        if g["total"] is not None and abs(d["memoryTotalBytes"] - g["total"]) > MIB:
            failures.append("cuda:%d total %d, nvidia-smi %d" % (g["index"], d["memoryTotalBytes"], g["total"]))
        # The two readings are moments apart; the memory free may move a little in between.
        tolerance = max(256 * MIB, g["total"] // 100) if g["total"] else 256 * MIB
        if g["free"] is not None and abs(d["memoryFreeBytes"] - g["free"]) > tolerance:
            failures.append("cuda:%d free %s, nvidia-smi %s" % (g["index"], gib(d["memoryFreeBytes"]), gib(g["free"])))
        if g["name"] not in devices_text:
            failures.append("the table does not name %s" % g["name"])
    if "(source: nvml)" not in devices_text:
        failures.append("the table does not say source: nvml")
    d = device_entry(devices_json, p["index"]) or {}
    figures = "source %s; %d GPU(s); cuda:%d %s, total %s (nvidia-smi %s), free %s (nvidia-smi %s); driver %s " \
              "(nvidia-smi; berth devices shows none)" % (
                  devices_json.get("source"), len(berth_indices), p["index"], d.get("name", "?"),
                  gib(d.get("memoryTotalBytes", 0)), gib(p["total"]), gib(d.get("memoryFreeBytes", 0)),
                  gib(p["free"]), p["driver"])
    return _verdict(failures, figures, {"berth": devices_json, "nvidia_smi": smi})


def check_packing(p, report, smi_used_max=None):
    """The sweep: everything succeeded, PACKING_FIT (or one fewer) ran at once, never more reserved
    than the device can give, every attempt's measured peak between what it allocated and what it
    reserved."""
    failures = []
    all_attempts = attempts(report)
    succeeded = sum(1 for t in tasks(report) if t["status"] == "SUCCEEDED")
    if succeeded != p["pack_tasks"]:
        failures.append("%d of %d tasks succeeded" % (succeeded, p["pack_tasks"]))
    most, most_reserved = overlap(all_attempts)
    if most < p["pack_fit"] - 1 or most > p["pack_fit"]:
        failures.append("%d ran at once, expected %d (or one fewer)" % (most, p["pack_fit"]))
    capacity = p["total"] - p["floor"]
    if most_reserved > capacity:
        failures.append("%s reserved at once, above the %s Berth may hand out" % (gib(most_reserved), gib(capacity)))
    allocated = p["pack_reserve"] - p["pack_margin"]
    peaks = [a["peakGpuMemoryBytes"] for a in all_attempts]
    measured = [x for x in peaks if x is not None]
    if len(measured) != len(peaks):
        failures.append("%d of %d attempts have no measured GPU peak" % (len(peaks) - len(measured), len(peaks)))
    if measured and min(measured) < allocated:
        failures.append("a measured peak %s is below the %s the task allocated" % (gib(min(measured)), gib(allocated)))
    if measured and max(measured) > p["pack_reserve"]:
        failures.append("a measured peak %s is above the %s reserved" % (gib(max(measured)), gib(p["pack_reserve"])))
    figures = "%d tasks of %s (allocating %s), peak concurrency %d (expected %d), at most %s reserved of %s " \
              "(total %s); measured peaks %s" % (
                  p["pack_tasks"], gib(p["pack_reserve"]), gib(allocated), most, p["pack_fit"], gib(most_reserved),
                  gib(capacity), gib(p["total"]),
                  "%s to %s" % (gib(min(measured)), gib(max(measured))) if measured else "none")
    if smi_used_max is not None:
        figures += "; nvidia-smi saw at most %s used" % gib(smi_used_max)
    return _verdict(failures, figures, {"peak_concurrency": most, "max_reserved": most_reserved,
                                        "peaks": peaks, "nvidia_smi_used_max": smi_used_max})


def check_foreign(p, holder, devices_json, devices_text, report):
    """A process outside Berth holding memory: berth devices lists its pid as not Berth's, its
    memory is not free to Berth, and two tasks that would fit together beside nothing ran one at a
    time beside it."""
    failures = []
    pid = holder["pid"]
    held = holder["held_bytes"]
    d = device_entry(devices_json, p["index"]) or {"processes": [], "memoryFreeBytes": 0}
    mine = [x for x in d.get("processes", []) if x.get("pid") == pid]
    if not mine:
        failures.append("berth devices --json does not list the holder's pid %d on cuda:%d" % (pid, p["index"]))
    else:
        entry = mine[0]
        if entry.get("memoryBytes") is None or entry["memoryBytes"] < held:
            failures.append("the holder's memory reads %s, it holds %s" % (entry.get("memoryBytes"), gib(held)))
        if "berthRun" not in entry or entry["berthRun"] is not None:
            failures.append("the holder is not shown as outside Berth: %r" % (entry,))
    if not any(str(pid) in line and "not Berth" in line for line in devices_text.splitlines()):
        failures.append("the table does not show pid %d as not Berth" % pid)
    if d["memoryFreeBytes"] > p["free"] - held:
        failures.append("free reads %s with %s held, of %s free before" % (gib(d["memoryFreeBytes"]), gib(held),
                                                                          gib(p["free"])))
    most, most_reserved = overlap(attempts(report))
    succeeded = sum(1 for t in tasks(report) if t["status"] == "SUCCEEDED")
    if most != 1:
        failures.append("%d of the tasks ran at once beside the holder, expected 1" % most)
    if succeeded != 2:
        failures.append("%d of 2 tasks succeeded" % succeeded)
    entry = mine[0] if mine else {}
    figures = "holder pid %d holds %s; berth devices: %s, user %s, run %s; free %s (was %s); 2 tasks of %s " \
              "ran %d at a time" % (
                  pid, gib(held), gib(entry["memoryBytes"]) if entry.get("memoryBytes") is not None else "n/a",
                  entry.get("user", "?"), entry.get("berthRun", "none"), gib(d["memoryFreeBytes"]), gib(p["free"]),
                  gib(p["foreign_reserve"]), most)
    return _verdict(failures, figures, {"holder": holder, "device": d, "peak_concurrency": most,
                                        "max_reserved": most_reserved})


def _refusal(name, stderr, reserve, failures):
    """What the driver's first refusal in a task's stderr says, as a figure; a refusal missing, or
    one before the task held more than its reservation, is a failure."""
    m = re.search(r"refused at ([0-9.]+) GiB of [0-9.]+ GiB: .*CUDA_ERROR_OUT_OF_MEMORY", stderr)
    if not m:
        failures.append("%s did not get CUDA_ERROR_OUT_OF_MEMORY" % name)
        return "no refusal"
    held = float(m.group(1)) * GIB
    if held <= reserve:
        failures.append("%s was refused at %s, within its %s" % (name, gib(held), gib(reserve)))
    return "refused at %s held" % gib(held)


def check_oom(p, one_report, one_stderr, two_report, two_stderr, waits=None):
    """A real CUDA_ERROR_OUT_OF_MEMORY past the reservation, classified GPU_OOM and retried bigger:
    a one-stage task as a second attempt, a two-stage task as a second train call."""
    failures = []
    figures = []
    reserve = p["oom_reserve"]
    grown = mib_floor(reserve * OOM_GROWTH)
    # one-stage
    t = task(one_report, "oom-one")
    a = t["attempts"]
    refused = _refusal("oom-one's first attempt", one_stderr, reserve, failures)
    if len(a) < 2 or a[0]["outcome"] != "GPU_OOM":
        failures.append("oom-one: attempts %s, expected GPU_OOM then a retry" % [x["outcome"] for x in a])
    elif a[1]["reservedGpuMemoryBytes"] < grown:
        failures.append("oom-one's retry reserved %s, less than %s x %s" % (gib(a[1]["reservedGpuMemoryBytes"]),
                                                                            OOM_GROWTH, gib(reserve)))
    if t["status"] != "SUCCEEDED":
        failures.append("oom-one ended %s" % t["status"])
    peak1 = a[0].get("peakGpuMemoryBytes") if a else None
    if peak1 is not None and peak1 <= a[0]["reservedGpuMemoryBytes"]:
        failures.append("oom-one's first attempt peaked at %s, not past its %s" % (gib(peak1), gib(reserve)))
    figures.append("one-stage: %s, %s" % (refused, ", ".join(
        "%s reserving %s (peak %s)" % (x["outcome"], gib(x["reservedGpuMemoryBytes"]),
                                       gib(x["peakGpuMemoryBytes"]) if x.get("peakGpuMemoryBytes") else "n/a")
        for x in a)))
    # two-stage
    t = task(two_report, "oom-two")
    calls = [c for x in t["attempts"] for c in x.get("trainCalls", [])]
    refused = _refusal("oom-two's first train", two_stderr, reserve, failures)
    if len(calls) < 2 or calls[0]["outcome"] != "GPU_OOM" or calls[-1]["outcome"] != "TRAINED":
        failures.append("oom-two: train calls %s, expected GPU_OOM then TRAINED" % [c["outcome"] for c in calls])
    elif calls[-1]["reservedGpuMemoryBytes"] < grown:
        failures.append("oom-two's last train call reserved %s, less than %s x %s" % (
            gib(calls[-1]["reservedGpuMemoryBytes"]), OOM_GROWTH, gib(reserve)))
    if len(t["attempts"]) != 1:
        failures.append("oom-two took %d attempts; a train OOM keeps the loaded process" % len(t["attempts"]))
    if t["status"] != "SUCCEEDED":
        failures.append("oom-two ended %s" % t["status"])
    figures.append("two-stage: %s, train calls %s" % (refused, ", ".join(
        "%s reserving %s" % (c["outcome"], gib(c["reservedGpuMemoryBytes"])) for c in calls)))
    figures.append("needing %s beside a holder leaving %s" % (gib(p["oom_need"]), gib(p["oom_leave"])))
    for name, why in sorted((waits or {}).items()):
        figures.append("%s waited: %s" % (name, why))
    return _verdict(failures, "; ".join(figures), {"one_stage": one_report, "two_stage": two_report})


def check_learning(p, report, console):
    """Learned GPU requests: after the first tasks, the rest reserve 1.2 x the measured peaks, well
    under what they declare, and none runs out of memory."""
    failures = []
    declared = p["learn_declared"]
    all_attempts = attempts(report)
    ooms = [a for a in all_attempts if a["outcome"] == "GPU_OOM"]
    if ooms:
        failures.append("%d GPU out-of-memory endings" % len(ooms))
    succeeded = sum(1 for t in tasks(report) if t["status"] == "SUCCEEDED")
    if succeeded != p["learn_tasks"]:
        failures.append("%d of %d tasks succeeded" % (succeeded, p["learn_tasks"]))
    peaks = [a["peakGpuMemoryBytes"] for a in all_attempts if a.get("peakGpuMemoryBytes") is not None]
    learned = [a for a in all_attempts if a["reservedGpuMemoryBytes"] < declared]
    least = p["learn_tasks"] - 2 * p["learn_parallel"]
    if len(learned) < least:
        failures.append("%d tasks reserved less than declared, expected at least %d" % (len(learned), least))
    if peaks and learned:
        low, high = LEARN_FACTOR * min(peaks), mib_ceil(LEARN_FACTOR * max(peaks)) + MIB
        off = [a["reservedGpuMemoryBytes"] for a in learned if not low <= a["reservedGpuMemoryBytes"] <= high]
        if off:
            failures.append("learned %s, outside 1.2 x the peaks (%s to %s)" % (
                ", ".join(gib(x) for x in off), gib(low), gib(high)))
    under = [a for a in learned if (a.get("peakGpuMemoryBytes") or 0) > a["reservedGpuMemoryBytes"]]
    if under:
        failures.append("%d learned requests were below the task's own peak" % len(under))
    notes = [line.strip() for line in console.splitlines() if "GPU memory" in line and "learned from" in line]
    if not notes:
        failures.append("the console never said a GPU memory request was learned")
    reserved = sorted({a["reservedGpuMemoryBytes"] for a in learned})
    figures = "%d tasks declaring %s, using %s: %d reserved a learned %s; measured peaks %s; %d GPU OOM%s" % (
        p["learn_tasks"], gib(declared), gib(p["learn_use"]), len(learned),
        " / ".join(gib(x) for x in reserved) or "nothing",
        "%s to %s" % (gib(min(peaks)), gib(max(peaks))) if peaks else "none", len(ooms),
        "; console: " + notes[0] if notes else "")
    return _verdict(failures, figures, {"learned": len(learned), "reserved": reserved, "peaks": peaks})


# ---------------------------------------------------------------------------------------------
# The table


def table(results, gpu=None):
    """The Markdown table of the checks' verdicts, in CHECKS order; a check that did not run fails."""
    lines = []
    if gpu:
        lines.append("GPU %s: %s, %s total, driver %s." % (gpu["index"], gpu["name"], gib(gpu["total"]),
                                                          gpu["driver"]))
        lines.append("")
    lines += ["| # | check | result | figures |", "| --- | --- | --- | --- |"]
    for n, (name, title) in enumerate(CHECKS, 1):
        r = results.get(name)
        verdict = "not run" if r is None else ("PASS" if r["passed"] else "FAIL")
        figures = "the check did not run" if r is None else r["figures"]
        lines.append("| %d | %s | %s | %s |" % (n, title, verdict, figures.replace("|", "\\|")))
    return "\n".join(lines) + "\n"


def all_passed(results):
    return all(name in results and results[name]["passed"] for name, _ in CHECKS)


# ---------------------------------------------------------------------------------------------
# Command line


def _read(path):
    with open(path) as f:
        return f.read()


def _json(path):
    with open(path) as f:
        return json.load(f)


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def _record(outdir, name, verdict):
    passed, figures, details = verdict
    os.makedirs(os.path.join(outdir, "checks"), exist_ok=True)
    _write(os.path.join(outdir, "checks", name + ".json"),
           json.dumps({"name": name, "passed": passed, "figures": figures, "details": details}, indent=2))
    print("%s %s: %s" % ("PASS" if passed else "FAIL", name, figures), flush=True)
    return 0


def _results(outdir):
    results = {}
    folder = os.path.join(outdir, "checks")
    for name, _ in CHECKS:
        path = os.path.join(folder, name + ".json")
        if os.path.exists(path):
            results[name] = _json(path)
    return results


def _optional(path, default=""):
    return _read(path) if os.path.exists(path) else default


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    command, args = argv[0], argv[1:]
    if command == "plan":
        smi_path, index, outdir = args
        gpus = parse_smi_csv(_read(smi_path))
        chosen = [g for g in gpus if g["index"] == int(index)]
        if not chosen:
            print("proof: nvidia-smi shows no GPU %s" % index, file=sys.stderr)
            return 2
        try:
            p = plan(chosen[0])
        except ValueError as error:
            print("proof: %s" % error, file=sys.stderr)
            return 2
        _write(os.path.join(outdir, "plan.json"), json.dumps(p, indent=2))
        for key in sorted(p):
            if isinstance(p[key], int):
                print("%s=%d" % (key, p[key]))
        return 0
    outdir = args[0]
    p = _json(os.path.join(outdir, "plan.json")) if os.path.exists(os.path.join(outdir, "plan.json")) else None
    if command == "spec":
        kind, hold = args[1], args[2]
        sys.stdout.write(spec(kind, p, os.path.join(os.path.abspath(outdir), "runs", kind), hold))
        return 0
    if command == "check-devices":
        smi = parse_smi_csv(_read(os.path.join(outdir, "nvidia-smi.csv")))
        return _record(outdir, "devices", check_devices(
            p, smi, _json(os.path.join(outdir, "devices.json")), _read(os.path.join(outdir, "devices.txt"))))
    if command == "check-packing":
        used = [int(line.split(",")[-1]) * MIB for line in _optional(os.path.join(outdir, "packing-smi.csv")).splitlines()
                if re.fullmatch(r"\s*\d+\s*,\s*\d+\s*", line)]
        return _record(outdir, "packing", check_packing(
            p, _json(os.path.join(outdir, "runs", "packing", "report.json")), max(used) if used else None))
    if command == "check-foreign":
        return _record(outdir, "foreign", check_foreign(
            p, _json(os.path.join(outdir, "foreign-holder.json")), _json(os.path.join(outdir, "foreign-devices.json")),
            _read(os.path.join(outdir, "foreign-devices.txt")),
            _json(os.path.join(outdir, "runs", "foreign", "report.json"))))
    if command == "check-oom":
        runs = os.path.join(outdir, "runs")
        waits = {}
        for name in ("oom-one", "oom-two"):
            status = os.path.join(outdir, name + "-status.json")
            if os.path.exists(status):
                for t in _json(status).get("tasks", []):
                    if t.get("waitingFor"):
                        waits[t["id"]] = t["waitingFor"]
        return _record(outdir, "oom", check_oom(
            p, _json(os.path.join(runs, "oom-one", "report.json")),
            _optional(os.path.join(runs, "oom-one", "oom-one", "oom-one", "attempt-1.stderr.log")),
            _json(os.path.join(runs, "oom-two", "report.json")),
            _optional(os.path.join(runs, "oom-two", "oom-two", "oom-two", "attempt-1.stderr.log")), waits))
    if command == "check-learning":
        return _record(outdir, "learning", check_learning(
            p, _json(os.path.join(outdir, "runs", "learning", "report.json")),
            _optional(os.path.join(outdir, "learning.log"))))
    if command == "fail":
        name, why = args[1], " ".join(args[2:])
        return _record(outdir, name, (False, why, {}))
    if command == "table":
        results = _results(outdir)
        text = table(results, p)
        _write(os.path.join(outdir, "table.md"), text)
        print(text, end="")
        return 0 if all_passed(results) else 1
    print("proof: unknown command %r" % command, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
