"""cuda_hold.py against the stand-in driver: arguments, devices, holding, and how an out of memory is reported."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "python"))

import berth_task  # noqa: E402
import cuda_hold  # noqa: E402

MIB = cuda_hold.MIB
GIB = cuda_hold.GIB


def fake_driver(free):
    fake = cuda_hold.FakeCuda(free)
    return cuda_hold.Driver(cuda_hold.FakeLibrary(fake)), fake


class Sleeps:
    """Records the sleeps asked for instead of sleeping."""

    def __init__(self):
        self.asked = []

    def __call__(self, seconds):
        self.asked.append(seconds)


def run_one_stage(argv, env, free):
    driver, fake = fake_driver(free)
    sleeps = Sleeps()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cuda_hold.one_stage(cuda_hold.parse_args(argv), env, driver, sleeps)
    return code, err.getvalue(), fake, sleeps


class ArgumentsTest(unittest.TestCase):

    def test_sizes_are_read_in_bytes_and_binary_or_decimal_units(self):
        self.assertEqual(cuda_hold.parse_size("123"), 123)
        self.assertEqual(cuda_hold.parse_size("512MiB"), 512 * MIB)
        self.assertEqual(cuda_hold.parse_size("1.5GiB"), 3 * GIB // 2)
        self.assertEqual(cuda_hold.parse_size("2GB"), 2 * 10**9)
        self.assertEqual(cuda_hold.parse_size("4gib"), 4 * GIB)

    def test_a_size_that_is_not_one_is_refused_with_a_usage_error(self):
        for bad in (["--bytes", "5XB"], ["--margin", "-1GiB"], ["--chunk", "0"], ["--seconds", "-1"]):
            with self.subTest(bad=bad), contextlib.redirect_stderr(io.StringIO()) as err:
                with self.assertRaises(SystemExit) as exit_:
                    cuda_hold.parse_args(bad)
                self.assertEqual(exit_.exception.code, 2)
                self.assertIn("cuda_hold.py: error:", err.getvalue())

    def test_bytes_margin_and_leave_exclude_each_other(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            cuda_hold.parse_args(["--bytes", "1GiB", "--leave", "1GiB"])

    def test_a_two_stage_task_neither_waits_for_a_signal_nor_fills_the_device(self):
        for bad in (["--two-stage", "--until-signal"], ["--two-stage", "--leave", "1GiB"]):
            with self.subTest(bad=bad), contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
                cuda_hold.parse_args(bad)

    def test_the_defaults_hold_the_reservation_minus_a_gib_for_three_seconds(self):
        args = cuda_hold.parse_args([])
        self.assertEqual((args.margin, args.seconds, args.bytes, args.leave), ("1GiB", 3.0, None, None))


class DeviceTest(unittest.TestCase):

    def test_a_one_stage_task_uses_the_one_gpu_berth_left_visible(self):
        self.assertEqual(cuda_hold.device_ordinal({"CUDA_VISIBLE_DEVICES": "3", "BERTH_DEVICE": "cuda:3"}), 0)

    def test_a_two_stage_task_uses_the_physical_device_of_its_train_command(self):
        self.assertEqual(cuda_hold.device_ordinal({}, "cuda:2"), 2)
        self.assertEqual(cuda_hold.device_ordinal({}, "1"), 1)

    def test_without_visible_devices_the_berth_device_names_the_ordinal(self):
        self.assertEqual(cuda_hold.device_ordinal({"BERTH_DEVICE": "cuda:1"}), 1)

    def test_a_task_berth_kept_off_the_gpus_says_so(self):
        with self.assertRaisesRegex(ValueError, "placed this task on no GPU"):
            cuda_hold.device_ordinal({"CUDA_VISIBLE_DEVICES": "", "BERTH_DEVICE": "cpu"})

    def test_a_device_that_is_not_a_gpu_is_refused(self):
        with self.assertRaisesRegex(ValueError, "not a GPU device"):
            cuda_hold.device_ordinal({}, "tpu:0")


class WantedTest(unittest.TestCase):

    def test_the_margin_is_taken_from_berths_reservation(self):
        args = cuda_hold.parse_args(["--margin", "1GiB"])
        self.assertEqual(cuda_hold.wanted_bytes(args, {"BERTH_GPU_MEMORY_BYTES": str(4 * GIB)}, 0), 3 * GIB)

    def test_a_margin_without_a_reservation_is_an_error_naming_the_variable(self):
        with self.assertRaisesRegex(ValueError, "BERTH_GPU_MEMORY_BYTES"):
            cuda_hold.wanted_bytes(cuda_hold.parse_args([]), {}, 0)

    def test_leave_takes_what_is_free_but_that_much(self):
        args = cuda_hold.parse_args(["--leave", "5GiB"])
        self.assertEqual(cuda_hold.wanted_bytes(args, {}, 20 * GIB), 15 * GIB)
        self.assertEqual(cuda_hold.wanted_bytes(args, {}, 4 * GIB), 0)


class OneStageTest(unittest.TestCase):

    def test_a_task_holds_its_reservation_minus_the_margin_then_frees_it_and_writes_its_figures(self):
        with tempfile.TemporaryDirectory() as task_dir:
            env = {"CUDA_VISIBLE_DEVICES": "0", "BERTH_DEVICE": "cuda:0", "BERTH_GPU_MEMORY_BYTES": str(4 * GIB),
                   "BERTH_TASK_DIR": task_dir}
            code, err, fake, sleeps = run_one_stage(["--margin", "1GiB", "--seconds", "4"], env, 20 * GIB)
            with open(os.path.join(task_dir, "result.json")) as f:
                result = json.load(f)
        self.assertEqual(code, 0)
        self.assertEqual(result["held_bytes"], 3 * GIB)
        self.assertEqual(result["wanted_bytes"], 3 * GIB)
        self.assertEqual(sleeps.asked, [4.0])
        self.assertIn("holding 3.00 GiB on device 0", err)
        self.assertEqual((fake.free_bytes, fake.contexts, fake.allocations), (20 * GIB, 0, {}))
        self.assertEqual(fake.calls[:3], ["cuInit", "cuDeviceGet", "cuCtxCreate_v2"])

    def test_memory_is_taken_in_chunks_and_the_last_one_is_what_is_left(self):
        code, _, fake, _ = run_one_stage(["--device", "0", "--bytes", "600MiB", "--chunk", "256MiB", "--seconds", "0"],
                                         {}, 2 * GIB)
        self.assertEqual(code, 0)
        self.assertEqual(fake.calls.count("cuMemAlloc_v2"), 3)
        self.assertEqual(fake.calls.count("cuMemFree_v2"), 3)

    def test_a_refusal_past_the_reservation_is_reported_as_a_cuda_out_of_memory_and_exits_one(self):
        env = {"CUDA_VISIBLE_DEVICES": "0", "BERTH_GPU_MEMORY_BYTES": str(4 * GIB)}
        # 5.5 GiB free, 300 MiB of it for the context: the driver refuses past 5 GiB of the 6 wanted.
        code, err, fake, sleeps = run_one_stage(["--bytes", "6GiB", "--hold-on-oom", "1.5"], env, 11 * GIB // 2)
        self.assertEqual(code, cuda_hold.EXIT_OOM)
        last = err.strip().splitlines()[-1]
        self.assertTrue(last.startswith("RuntimeError: CUDA out of memory: "), last)
        self.assertIn("CUDA_ERROR_OUT_OF_MEMORY (2)", last)
        self.assertIn("after 5.00 GiB of 6.00 GiB wanted (reservation 4.00 GiB)", last)
        self.assertEqual(sleeps.asked, [1.5], "holds what it got so that the probe sees its peak")
        self.assertEqual((fake.free_bytes, fake.contexts), (11 * GIB // 2, 0))

    def test_berths_classifier_and_the_python_helper_both_read_the_report_as_a_gpu_out_of_memory(self):
        _, err, _, _ = run_one_stage(["--device", "0", "--bytes", "2GiB"], {}, GIB)
        # OomClassifier's GPU markers (core/src/main/java/dev/berth/core/scheduling/OomClassifier.java).
        self.assertIn("CUDA out of memory", err)
        error = cuda_hold.out_of_memory(cuda_hold.CudaError("cuMemAlloc", 2, "CUDA_ERROR_OUT_OF_MEMORY"), 0, 1, {})
        self.assertTrue(berth_task.is_out_of_memory(error))

    def test_another_driver_error_is_not_an_out_of_memory(self):
        driver, _ = fake_driver(8 * GIB)
        args = cuda_hold.parse_args(["--bytes", "1GiB"])
        with self.assertRaises(cuda_hold.CudaError) as raised:
            cuda_hold.hold(args, {}, driver, 1, Sleeps())
        self.assertEqual(raised.exception.name, "CUDA_ERROR_INVALID_DEVICE")
        self.assertNotIn("out of memory", str(raised.exception))
        self.assertFalse(berth_task.is_out_of_memory(raised.exception))

    def test_a_context_the_device_has_no_room_for_is_a_cuda_out_of_memory_too(self):
        code, err, fake, _ = run_one_stage(["--device", "0", "--bytes", "1GiB"], {}, 100 * MIB)
        self.assertEqual(code, cuda_hold.EXIT_OOM)
        self.assertIn("RuntimeError: CUDA out of memory: cuCtxCreate returned CUDA_ERROR_OUT_OF_MEMORY (2) making the "
                      "context on device 0", err)
        self.assertEqual(fake.contexts, 0)

    def test_another_driver_error_ends_the_task_with_three_and_one_line(self):
        code, err, _, _ = run_one_stage(["--device", "1", "--bytes", "1GiB"], {}, GIB)
        self.assertEqual(code, cuda_hold.EXIT_CUDA)
        self.assertEqual(err, "cuda_hold: cuDeviceGet(1) returned CUDA_ERROR_INVALID_DEVICE (101)\n")

    def test_a_margin_without_a_reservation_ends_the_task_with_two(self):
        code, err, fake, _ = run_one_stage(["--device", "0"], {}, GIB)
        self.assertEqual(code, cuda_hold.EXIT_USAGE)
        self.assertIn("--margin needs BERTH_GPU_MEMORY_BYTES", err)
        self.assertEqual(fake.contexts, 0)

    def test_a_task_on_no_gpu_exits_with_two(self):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            code = cuda_hold.one_stage(cuda_hold.parse_args([]), {"CUDA_VISIBLE_DEVICES": ""}, fake_driver(GIB)[0])
        self.assertEqual(code, cuda_hold.EXIT_USAGE)
        self.assertIn("no GPU", err.getvalue())

    def test_a_holder_fills_the_device_but_what_it_leaves_and_tells_when_it_holds(self):
        driver, fake = fake_driver(20 * GIB)
        with tempfile.TemporaryDirectory() as d:
            ready = os.path.join(d, "ready.json")
            args = cuda_hold.parse_args(["--device", "0", "--leave", "5GiB", "--chunk", "1MiB", "--until-signal",
                                         "--ready", ready])
            seen = {}

            def signalled():
                with open(ready) as f:
                    seen.update(json.load(f))
                seen["free_while_held"] = fake.free_bytes

            with contextlib.redirect_stderr(io.StringIO()):
                cuda_hold.hold(args, {}, driver, 0, Sleeps(), wait_for_signal=signalled)
        self.assertEqual(seen["free_while_held"], 5 * GIB)
        self.assertEqual(seen["held_bytes"], 20 * GIB - fake.CONTEXT_BYTES - 5 * GIB)
        self.assertEqual(seen["pid"], os.getpid())
        self.assertEqual(fake.free_bytes, 20 * GIB)

    def test_the_fake_driver_is_chosen_by_its_variable_so_main_runs_anywhere(self):
        with tempfile.TemporaryDirectory() as task_dir, contextlib.redirect_stderr(io.StringIO()):
            code = cuda_hold.main(["--bytes", "1GiB", "--seconds", "0"],
                                  {cuda_hold.FAKE_ENV: "4GiB", "CUDA_VISIBLE_DEVICES": "0", "BERTH_TASK_DIR": task_dir})
            with open(os.path.join(task_dir, "result.json")) as f:
                self.assertEqual(json.load(f)["held_bytes"], GIB)
        self.assertEqual(code, 0)


class TwoStageTest(unittest.TestCase):

    def test_a_train_out_of_memory_frees_everything_and_the_next_train_on_a_freer_device_succeeds(self):
        driver, fake = fake_driver(5 * GIB)
        args = cuda_hold.parse_args(["--two-stage", "--bytes", "6GiB", "--seconds", "2", "--hold-on-oom", "0"])
        outcomes = []

        def run_task(load, train, env):
            ctx = berth_task.TaskContext(env, lambda key, value: None)
            state = load(ctx)
            try:
                train(state, "cuda:0", ctx)
            except Exception as error:  # noqa: BLE001 - what berth_task.py would send
                outcomes.append(("oom" if berth_task.is_out_of_memory(error) else "exception", str(error)))
            outcomes.append(("free after the failed train", fake.free_bytes))
            fake.free_bytes += 2 * GIB  # the foreign holder lets go
            outcomes.append(("result", train(state, "cuda:0", ctx)))

        with contextlib.redirect_stderr(io.StringIO()):
            cuda_hold.two_stage(args, {}, driver, run_task, Sleeps())
        self.assertEqual(outcomes[0][0], "oom")
        self.assertIn("CUDA_ERROR_OUT_OF_MEMORY", outcomes[0][1])
        self.assertEqual(outcomes[1], ("free after the failed train", 5 * GIB))
        self.assertEqual(outcomes[2][1]["held_bytes"], 6 * GIB)
        self.assertEqual(outcomes[2][1]["device"], "cuda:0")

    def test_a_two_stage_task_handed_the_cpu_fails_plainly(self):
        driver, _ = fake_driver(GIB)
        args = cuda_hold.parse_args(["--two-stage", "--bytes", "1MiB"])
        errors = []

        def run_task(load, train, env):
            try:
                train(load(None), "cpu", None)
            except ValueError as error:
                errors.append(error)

        cuda_hold.two_stage(args, {}, driver, run_task, Sleeps())
        self.assertEqual(len(errors), 1)
        self.assertFalse(berth_task.is_out_of_memory(errors[0]))


if __name__ == "__main__":
    unittest.main()
