"""proof.py on recorded inputs: nvidia-smi's CSV, berth devices' JSON and table, made-up report.json files."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "test_data")
sys.path.insert(0, HERE)

import proof  # noqa: E402

MIB = proof.MIB
GIB = proof.GIB


def read(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def h200():
    return proof.parse_smi_csv(read("h200.query-gpu.csv"))[0]


def at(seconds):
    return "2026-11-29T05:00:%06.3fZ" % seconds


def attempt(start, end, reserved, peak, outcome="SUCCEEDED", number=1, calls=()):
    """An attempt as report.json writes one."""
    return {"number": number, "startedAt": at(start), "finishedAt": at(end), "exitCode": 0 if outcome == "SUCCEEDED" else 1,
            "device": "cuda:0", "pid": 1000 + int(start * 10), "clusterJob": None, "reservedMemoryBytes": 512 * MIB,
            "reservedGpuMemoryBytes": reserved, "reservedCpus": 0.0, "outcome": outcome, "error": None, "stage": None,
            "loadTimeMs": None, "trainTimeMs": None, "peakMemoryBytes": 90 * MIB, "cpuSeconds": 0.4,
            "peakGpuMemoryBytes": peak, "usageExact": True, "stderrTail": None, "trainCalls": list(calls)}


def call(number, reserved, outcome):
    return {"number": number, "device": "cuda:0", "reservedGpuMemoryBytes": reserved, "startedAt": at(number),
            "finishedAt": at(number + 1), "outcome": outcome, "error": None}


def report(group, task_attempts, statuses=None):
    """A report.json of one group whose tasks have these attempts (a mapping of id to attempts)."""
    statuses = statuses or {}
    tasks = [{"id": tid, "group": group, "status": statuses.get(tid, "SUCCEEDED"), "command": ["python3"],
              "workdir": "/runs/%s/%s" % (group, tid), "params": {}, "error": None, "attempts": a}
             for tid, a in task_attempts.items()]
    return {"run": "gpu-proof-" + group, "status": "SUCCEEDED", "startedAt": at(0), "finishedAt": at(59),
            "totals": {}, "groups": [{"name": group, "totals": {}, "tasks": tasks}], "devices": [], "efficiency": {}}


def packing_report():
    with open(os.path.join(DATA, "packing.report.json")) as f:
        return json.load(f)


class SmiCsvTest(unittest.TestCase):

    def test_the_recorded_h200_line_reads_in_bytes_with_its_driver(self):
        gpu = h200()
        self.assertEqual(gpu, {"index": 0, "uuid": "GPU-3f0c2a6e-9b1d-4c7a-8e2f-5d6b7a8c9d0e", "name": "NVIDIA H200",
                               "total": 143771 * MIB, "free": 143156 * MIB, "driver": "550.90.07"})

    def test_two_gpus_read_in_order_and_an_unknown_figure_is_none(self):
        gpus = proof.parse_smi_csv(read("rtx3090-2x.query-gpu.csv"))
        self.assertEqual([g["index"] for g in gpus], [0, 1])
        self.assertEqual(gpus[1]["free"], 23935 * MIB)
        text = read("rtx3090-2x.query-gpu.csv").replace("2779 MiB", "[N/A]")
        self.assertIsNone(proof.parse_smi_csv(text)[0]["free"])

    def test_output_without_the_asked_columns_is_refused(self):
        with self.assertRaisesRegex(ValueError, "lacks one of"):
            proof.parse_smi_csv("index, name\n0, NVIDIA H200\n")


class PlanTest(unittest.TestCase):

    def check_invariants(self, p):
        floor, free = p["floor"], p["free"]
        # packing: PACKING_FIT fit at once, one more does not; the margin leaves room for the context
        self.assertLessEqual(p["pack_fit"] * p["pack_reserve"] + floor, free)
        self.assertGreater((p["pack_fit"] + 1) * p["pack_reserve"] + floor, free)
        self.assertGreaterEqual(p["pack_margin"], min(GIB, p["pack_reserve"] // 4) - MIB)
        # foreign: two fit together on the free device, one beside the holder, not two
        self.assertLessEqual(2 * p["foreign_reserve"] + floor, free)
        self.assertLessEqual(p["foreign_hold"] + p["foreign_reserve"] + floor + GIB, free)
        self.assertGreater(p["foreign_hold"] + 2 * p["foreign_reserve"] + floor, free)
        # oom: placeable beside the holder, refused by the driver, the retry waits for the holder
        self.assertGreaterEqual(p["oom_leave"] - p["oom_reserve"], floor + GIB)
        self.assertGreater(p["oom_need"], p["oom_leave"])
        self.assertGreater(p["oom_reserve"] * proof.OOM_GROWTH, p["oom_leave"] - floor)
        self.assertLessEqual(p["oom_need"] + floor, free)
        # learning: 1.2 x (use + a context of up to 1 GiB) stays under what is declared
        self.assertLess(proof.LEARN_FACTOR * (p["learn_use"] + GIB), p["learn_declared"])

    def test_an_h200_gets_sizes_that_hold_every_parts_premise(self):
        p = proof.plan(h200())
        self.check_invariants(p)
        self.assertEqual(p["oom_reserve"], 143156 * MIB // 16 // MIB * MIB)

    def test_a_24_gib_card_gets_sizes_that_hold_every_parts_premise(self):
        p = proof.plan(proof.parse_smi_csv(read("rtx3090-2x.query-gpu.csv"))[1])
        self.check_invariants(p)
        self.assertEqual((p["oom_reserve"], p["learn_declared"]), (4 * GIB, 2 * GIB))

    def test_a_big_card_someone_else_uses_gets_sizes_from_what_is_free(self):
        busy = dict(h200(), free=10 * GIB)
        p = proof.plan(busy)
        self.check_invariants(p)
        self.assertEqual(p["oom_reserve"], 10 * GIB // 4)

    def test_a_nearly_full_device_is_refused_with_its_free_memory(self):
        with self.assertRaisesRegex(ValueError, "2.71 GiB free is too little"):
            proof.plan(proof.parse_smi_csv(read("rtx3090-2x.query-gpu.csv"))[0])

    def test_the_plan_command_writes_the_plan_and_shell_assignments(self):
        with tempfile.TemporaryDirectory() as out, contextlib.redirect_stdout(io.StringIO()) as printed:
            code = proof.main(["plan", os.path.join(DATA, "h200.query-gpu.csv"), "0", out])
            with open(os.path.join(out, "plan.json")) as f:
                written = json.load(f)
        self.assertEqual(code, 0)
        self.assertIn("oom_leave=%d\n" % written["oom_leave"], printed.getvalue())
        self.assertNotIn("name=", printed.getvalue())


class SpecTest(unittest.TestCase):

    def test_each_part_asks_what_the_plan_sized_and_keeps_a_floor_of_its_own(self):
        p = proof.plan(h200())
        for kind, line in (("packing", "gpu-memory: %d" % p["pack_reserve"]),
                           ("foreign", "gpu-memory: %d" % p["foreign_reserve"]),
                           ("oom-one", "--bytes, \"%d\"" % p["oom_need"]),
                           ("oom-two", "two-stage: true"),
                           ("learning", "max-process: 3")):
            with self.subTest(kind=kind):
                text = proof.spec(kind, p, "/out/runs/" + kind, "/repo/scripts/gpu_proof/cuda_hold.py")
                self.assertIn(line, text)
                self.assertIn("name: gpu-proof-%s\n" % kind, text)
                self.assertIn("remain-limit: {cuda-memory: %d}" % proof.FLOOR, text)
                self.assertIn('"/repo/scripts/gpu_proof/cuda_hold.py"', text)

    def test_only_the_learning_part_learns_and_the_out_of_memory_tasks_may_retry_where_they_failed(self):
        p = proof.plan(h200())
        self.assertIn('learn-gpu-memory: "on"', proof.spec("learning", p, "/w", "/h"))
        self.assertIn('learn-gpu-memory: "off"', proof.spec("packing", p, "/w", "/h"))
        self.assertIn("blacklist: false", proof.spec("oom-one", p, "/w", "/h"))

    def test_an_unknown_part_is_refused(self):
        with self.assertRaises(ValueError):
            proof.spec("nope", proof.plan(h200()), "/w", "/h")


class OverlapTest(unittest.TestCase):

    def test_attempts_that_touch_do_not_overlap(self):
        self.assertEqual(proof.overlap([attempt(0, 4, GIB, None), attempt(4, 8, GIB, None)]), (1, GIB))

    def test_the_most_at_once_and_the_most_reserved_at_once(self):
        spans = [attempt(0, 4, GIB, None), attempt(1, 5, 2 * GIB, None), attempt(2, 3, 3 * GIB, None),
                 attempt(4.5, 6, 5 * GIB, None)]
        self.assertEqual(proof.overlap(spans), (3, 7 * GIB))

    def test_instants_read_with_or_without_a_fraction(self):
        self.assertEqual(proof.instant("2026-11-29T05:00:01Z") + 0.25, proof.instant("2026-11-29T05:00:01.250Z"))


class DevicesCheckTest(unittest.TestCase):

    def test_berth_devices_agreeing_with_nvidia_smi_passes(self):
        passed, figures, _ = proof.check_devices(proof.plan(h200()), [h200()], json.loads(read("h200.devices.json")),
                                                 read("h200.devices.txt"))
        self.assertTrue(passed, figures)
        self.assertIn("source nvml", figures)
        self.assertIn("driver 550.90.07", figures)

    def test_a_free_memory_far_from_nvidia_smis_fails_naming_both(self):
        devices = json.loads(read("h200.devices.json"))
        devices["devices"][0]["memoryFreeBytes"] -= 8 * GIB
        passed, figures, _ = proof.check_devices(proof.plan(h200()), [h200()], devices, read("h200.devices.txt"))
        self.assertFalse(passed)
        self.assertIn("cuda:0 free 131.80 GiB, nvidia-smi 139.80 GiB", figures)

    def test_the_nvidia_smi_fallback_instead_of_nvml_fails(self):
        devices = json.loads(read("h200.devices.json"))
        devices["source"] = "nvidia-smi"
        devices["error"] = "NVML: the library could not be loaded (libnvidia-ml.so.1: not found)"
        passed, figures, _ = proof.check_devices(proof.plan(h200()), [h200()], devices,
                                                 read("h200.devices.txt").replace("nvml", "nvidia-smi"))
        self.assertFalse(passed)
        self.assertIn("not nvml (NVML: the library could not be loaded", figures)
        self.assertIn("the table does not say source: nvml", figures)

    def test_a_gpu_berth_does_not_see_fails(self):
        two = proof.parse_smi_csv(read("rtx3090-2x.query-gpu.csv"))
        passed, figures, _ = proof.check_devices(proof.plan(two[1]), two, json.loads(read("h200.devices.json")),
                                                 read("h200.devices.txt"))
        self.assertFalse(passed)
        self.assertIn("GPUs [0], nvidia-smi has [0, 1]", figures)


class PackingCheckTest(unittest.TestCase):

    def test_the_made_up_sweep_of_two_waves_of_six_passes(self):
        passed, figures, details = proof.check_packing(proof.plan(h200()), packing_report(), 130 * GIB)
        self.assertTrue(passed, figures)
        self.assertEqual(details["peak_concurrency"], 6)
        self.assertIn("peak concurrency 6 (expected 6)", figures)
        self.assertIn("nvidia-smi saw at most 130.00 GiB used", figures)

    def test_seven_at_once_fails(self):
        r = packing_report()
        r["groups"][0]["tasks"][6]["attempts"][0]["startedAt"] = at(1)
        passed, figures, _ = proof.check_packing(proof.plan(h200()), r)
        self.assertFalse(passed)
        self.assertIn("7 ran at once, expected 6", figures)

    def test_attempts_without_a_measured_peak_fail(self):
        r = packing_report()
        r["groups"][0]["tasks"][0]["attempts"][0]["peakGpuMemoryBytes"] = None
        passed, figures, _ = proof.check_packing(proof.plan(h200()), r)
        self.assertFalse(passed)
        self.assertIn("1 of 12 attempts have no measured GPU peak", figures)

    def test_a_peak_above_the_reservation_fails(self):
        p = proof.plan(h200())
        r = packing_report()
        r["groups"][0]["tasks"][3]["attempts"][0]["peakGpuMemoryBytes"] = p["pack_reserve"] + MIB
        passed, figures, _ = proof.check_packing(p, r)
        self.assertFalse(passed)
        self.assertIn("above the 21.43 GiB reserved", figures)

    def test_a_failed_task_fails_the_sweep(self):
        r = packing_report()
        r["groups"][0]["tasks"][5]["status"] = "FAILED"
        passed, figures, _ = proof.check_packing(proof.plan(h200()), r)
        self.assertFalse(passed)
        self.assertIn("11 of 12 tasks succeeded", figures)


def oom_reports(p, first_outcome="GPU_OOM"):
    r, grown = p["oom_reserve"], int(p["oom_reserve"] * proof.OOM_GROWTH)
    one = report("oom-one", {"oom-one": [attempt(0, 4, r, p["oom_leave"], first_outcome),
                                         attempt(9, 12, grown, p["oom_need"] + 300 * MIB, number=2)]})
    two = report("oom-two", {"oom-two": [attempt(0, 14, grown, p["oom_need"], calls=[
        call(1, r, first_outcome), call(2, grown, "TRAINED")])]})
    return one, two


STDERR = ("cuda_hold: refused at 10.65 GiB of 11.47 GiB: cuMemAlloc(268435456) returned "
          "CUDA_ERROR_OUT_OF_MEMORY (2); holding it 1.5 s\n")


class OomCheckTest(unittest.TestCase):

    def test_a_gpu_oom_then_a_bigger_retry_that_succeeds_passes_in_both_stages(self):
        p = proof.plan(h200())
        one, two = oom_reports(p)
        passed, figures, _ = proof.check_oom(p, one, STDERR, two, STDERR,
                                             {"oom-one": "GPU memory: asked 13.2 GiB, free 10.9 GiB on cuda:0"})
        self.assertTrue(passed, figures)
        self.assertIn("one-stage: refused at 10.65 GiB held, GPU_OOM reserving 8.74 GiB (peak 10.92 GiB), "
                      "SUCCEEDED reserving 13.11 GiB", figures)
        self.assertIn("two-stage: refused at 10.65 GiB held, train calls GPU_OOM reserving 8.74 GiB, "
                      "TRAINED reserving 13.11 GiB", figures)
        self.assertIn("oom-one waited: GPU memory: asked 13.2 GiB", figures)

    def test_an_oom_berth_took_for_a_plain_failure_fails(self):
        p = proof.plan(h200())
        one, two = oom_reports(p, first_outcome="FAILED")
        passed, figures, _ = proof.check_oom(p, one, STDERR, two, STDERR)
        self.assertFalse(passed)
        self.assertIn("oom-one: attempts ['FAILED', 'SUCCEEDED'], expected GPU_OOM then a retry", figures)
        self.assertIn("oom-two: train calls ['FAILED', 'TRAINED']", figures)

    def test_a_retry_no_bigger_fails_and_so_does_an_oom_not_from_the_driver(self):
        p = proof.plan(h200())
        one, two = oom_reports(p)
        one["groups"][0]["tasks"][0]["attempts"][1]["reservedGpuMemoryBytes"] = p["oom_reserve"]
        passed, figures, _ = proof.check_oom(p, one, "", two, STDERR)
        self.assertFalse(passed)
        self.assertIn("oom-one's retry reserved 8.74 GiB, less than 1.5 x 8.74 GiB", figures)
        self.assertIn("oom-one's first attempt did not get CUDA_ERROR_OUT_OF_MEMORY", figures)

    def test_a_refusal_within_the_reservation_proves_nothing_and_fails(self):
        p = proof.plan(h200())
        one, two = oom_reports(p)
        early = STDERR.replace("refused at 10.65 GiB", "refused at 8.50 GiB")
        passed, figures, _ = proof.check_oom(p, one, early, two, STDERR)
        self.assertFalse(passed)
        self.assertIn("oom-one's first attempt was refused at 8.50 GiB, within its 8.74 GiB", figures)

    def test_a_two_stage_task_started_again_instead_of_training_again_fails(self):
        p = proof.plan(h200())
        one, two = oom_reports(p)
        t = two["groups"][0]["tasks"][0]
        t["attempts"].insert(0, attempt(0, 1, p["oom_reserve"], None, "GPU_OOM"))
        passed, figures, _ = proof.check_oom(p, one, STDERR, two, STDERR)
        self.assertFalse(passed)
        self.assertIn("oom-two took 2 attempts", figures)


class ForeignCheckTest(unittest.TestCase):

    def holder(self, p):
        return {"pid": 4242, "held_bytes": p["foreign_hold"], "device_ordinal": 0}

    def beside(self, p, second_start):
        return report("foreign", {"beside-1": [attempt(0, 3, p["foreign_reserve"], 42 * GIB)],
                                  "beside-2": [attempt(second_start, second_start + 3, p["foreign_reserve"], 42 * GIB)]})

    def test_a_holder_listed_as_not_berth_and_tasks_run_one_at_a_time_beside_it_passes(self):
        p = proof.plan(h200())
        passed, figures, _ = proof.check_foreign(p, self.holder(p), json.loads(read("h200-foreign.devices.json")),
                                                 read("h200-foreign.devices.txt"), self.beside(p, 3.2))
        self.assertTrue(passed, figures)
        self.assertIn("holder pid 4242 holds 69.90 GiB; berth devices: 70.39 GiB, user alice, run None", figures)
        self.assertIn("ran 1 at a time", figures)

    def test_tasks_placed_as_if_the_holder_were_not_there_fail(self):
        p = proof.plan(h200())
        passed, figures, _ = proof.check_foreign(p, self.holder(p), json.loads(read("h200-foreign.devices.json")),
                                                 read("h200-foreign.devices.txt"), self.beside(p, 1))
        self.assertFalse(passed)
        self.assertIn("2 of the tasks ran at once beside the holder, expected 1", figures)

    def test_a_holder_berth_does_not_list_fails(self):
        p = proof.plan(h200())
        devices = json.loads(read("h200-foreign.devices.json"))
        devices["devices"][0]["processes"] = []
        devices["devices"][0]["memoryFreeBytes"] = p["free"]
        passed, figures, _ = proof.check_foreign(p, self.holder(p), devices, read("h200.devices.txt"),
                                                 self.beside(p, 3.2))
        self.assertFalse(passed)
        self.assertIn("does not list the holder's pid 4242 on cuda:0", figures)
        self.assertIn("the table does not show pid 4242 as not Berth", figures)
        self.assertIn("free reads 139.80 GiB with 69.90 GiB held", figures)

    def test_a_holder_taken_for_a_berth_task_fails(self):
        p = proof.plan(h200())
        devices = json.loads(read("h200-foreign.devices.json"))
        devices["devices"][0]["processes"][0]["berthRun"] = "gpu-proof-foreign"
        passed, figures, _ = proof.check_foreign(p, self.holder(p), devices, read("h200-foreign.devices.txt"),
                                                 self.beside(p, 3.2))
        self.assertFalse(passed)
        self.assertIn("the holder is not shown as outside Berth", figures)


class LearningCheckTest(unittest.TestCase):

    CONSOLE = ("learn-{i}: memory 40 MiB learned from 3 tasks (declared 512 MiB)\n"
               "learn-{i}: GPU memory 3.2 GiB learned from 3 tasks (declared 8.8 GiB)\n")

    def sweep(self, p, learned):
        peak = p["learn_use"] + 500 * MIB
        waves = {}
        for i in range(1, 13):
            wave = (i - 1) // 3
            reserved = p["learn_declared"] if wave == 0 else learned
            waves["learn-%d" % i] = [attempt(wave * 3, wave * 3 + 2.5, reserved, peak)]
        return report("learning", waves)

    def test_nine_tasks_reserving_what_was_learned_from_the_first_three_pass(self):
        p = proof.plan(h200())
        learned = proof.mib_ceil((p["learn_use"] + 500 * MIB) * 1.2)
        passed, figures, details = proof.check_learning(p, self.sweep(p, learned), self.CONSOLE)
        self.assertTrue(passed, figures)
        self.assertEqual(details["learned"], 9)
        self.assertIn("9 reserved a learned 3.21 GiB", figures)
        self.assertIn("console: learn-{i}: GPU memory 3.2 GiB learned from 3 tasks", figures)

    def test_nothing_learned_fails_and_a_host_memory_note_is_not_a_gpu_one(self):
        p = proof.plan(h200())
        passed, figures, _ = proof.check_learning(p, self.sweep(p, p["learn_declared"]), self.CONSOLE.splitlines()[0])
        self.assertFalse(passed)
        self.assertIn("0 tasks reserved less than declared, expected at least 6", figures)
        self.assertIn("the console never said a GPU memory request was learned", figures)

    def test_a_learned_request_below_the_peaks_fails(self):
        p = proof.plan(h200())
        passed, figures, _ = proof.check_learning(p, self.sweep(p, p["learn_use"]), self.CONSOLE)
        self.assertFalse(passed)
        self.assertIn("outside 1.2 x the peaks", figures)
        self.assertIn("9 learned requests were below the task's own peak", figures)


class TableTest(unittest.TestCase):

    def results(self):
        return {name: {"name": name, "passed": True, "figures": "fine"} for name, _ in proof.CHECKS}

    def test_every_check_is_a_row_in_order_under_the_gpu_line(self):
        text = proof.table(self.results(), proof.plan(h200()))
        lines = text.splitlines()
        self.assertEqual(lines[0], "GPU 0: NVIDIA H200, 140.40 GiB total, driver 550.90.07.")
        self.assertEqual(lines[2], "| # | check | result | figures |")
        self.assertEqual(lines[4], "| 1 | berth devices against nvidia-smi | PASS | fine |")
        self.assertEqual(lines[-1], "| 5 | learned GPU requests (sweep of 12) | PASS | fine |")
        self.assertTrue(proof.all_passed(self.results()))

    def test_a_check_that_did_not_run_fails_the_table(self):
        results = self.results()
        del results["oom"]
        self.assertIn("| 3 | real CUDA_ERROR_OUT_OF_MEMORY retried bigger | not run | the check did not run |",
                      proof.table(results))
        self.assertFalse(proof.all_passed(results))

    def test_a_pipe_in_the_figures_does_not_break_the_row(self):
        results = self.results()
        results["devices"]["figures"] = "a | b"
        self.assertIn("| a \\| b |", proof.table(results))

    def test_the_checks_and_the_table_from_the_command_line(self):
        with tempfile.TemporaryDirectory() as out, contextlib.redirect_stdout(io.StringIO()) as printed:
            proof.main(["plan", os.path.join(DATA, "h200.query-gpu.csv"), "0", out])
            for name in ("nvidia-smi.csv", "devices.json", "devices.txt"):
                source = {"nvidia-smi.csv": "h200.query-gpu.csv"}.get(name, "h200." + name)
                with open(os.path.join(out, name), "w") as f:
                    f.write(read(source))
            self.assertEqual(proof.main(["check-devices", out]), 0)
            self.assertEqual(proof.main(["fail", out, "packing", "berth", "run", "failed"]), 0)
            code = proof.main(["table", out])
            with open(os.path.join(out, "table.md")) as f:
                table = f.read()
        self.assertEqual(code, 1)
        self.assertIn("PASS devices: source nvml", printed.getvalue())
        self.assertIn("FAIL packing: berth run failed", printed.getvalue())
        self.assertIn("| 2 | packing sweep on real allocations | FAIL | berth run failed |", table)
        self.assertIn("| 5 | learned GPU requests (sweep of 12) | not run |", table)


if __name__ == "__main__":
    unittest.main()
