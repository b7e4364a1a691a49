"""Allocates and holds real GPU memory through the CUDA driver API, from Python's ctypes alone.

The real-GPU proof (scripts/gpu-proof.sh) runs it as Berth's tasks and as the foreign process that
fills a device. No framework: libcuda.so.1, which the driver installs, is all it needs.

    python3 cuda_hold.py --margin 1GiB --seconds 3          # a Berth task: its reservation minus 1 GiB
    python3 cuda_hold.py --bytes 6GiB --seconds 3           # exactly 6 GiB, in chunks
    python3 cuda_hold.py --device 0 --leave 5GiB --until-signal --ready FILE
                                                            # a foreign holder: fills device 0 but 5 GiB
    python3 cuda_hold.py --two-stage --bytes 6GiB           # the same in the train stage of a two-stage task

Which device: as a one-stage Berth task, the first of CUDA_VISIBLE_DEVICES (Berth narrows it to the
task's GPU); as a two-stage task, the device the train command names (``cuda:N``, every GPU being
visible in PCI bus order); by hand, ``--device N``. The reservation is BERTH_GPU_MEMORY_BYTES.

When the driver refuses a chunk before the wanted amount is held, the task holds what it got for
``--hold-on-oom`` seconds (so Berth's probe sees its peak), frees it, and reports a GPU out of
memory the way Berth reads one: a one-stage task prints ``CUDA out of memory`` on stderr and exits
1; a two-stage task raises it from ``train``, which berth_task.py sends as an ``oom`` message, and
waits for the next train.

Exit codes: 0 once the memory was held and freed, 1 after an out of memory, 2 for a usage error (or
a task Berth put on no GPU), 3 for another driver error.

With BERTH_PROOF_FAKE_CUDA set to a size (the fake device's free memory, e.g. ``8GiB``), a
Python stand-in for the driver is used instead of libcuda, so the logic runs on any machine.
"""

import argparse
import ctypes
import json
import os
import re
import signal
import sys
import time

FAKE_ENV = "BERTH_PROOF_FAKE_CUDA"
CUDA_SUCCESS = 0
CUDA_ERROR_OUT_OF_MEMORY = 2
EXIT_OOM = 1
EXIT_USAGE = 2
EXIT_CUDA = 3

MIB = 2**20
GIB = 2**30
_UNITS = {"": 1, "B": 1, "KIB": 2**10, "MIB": MIB, "GIB": GIB, "TIB": 2**40,
          "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12}


def parse_size(text):
    """Bytes from ``123``, ``512MiB``, ``1.5GiB`` or ``2GB``."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]i?B|B)?\s*", str(text), re.IGNORECASE)
    if not m:
        raise ValueError("not a size: %r (write bytes, or e.g. 512MiB, 1.5GiB)" % (text,))
    return int(float(m.group(1)) * _UNITS[(m.group(2) or "").upper()])


def gib(n):
    """A size for people, in GiB with two decimals."""
    return "%.2f GiB" % (n / GIB)


class CudaError(Exception):
    """A driver call that did not return CUDA_SUCCESS."""

    def __init__(self, call, code, name):
        super().__init__("%s returned %s (%d)" % (call, name, code))
        self.call = call
        self.code = code
        self.name = name


class CudaOutOfMemoryError(RuntimeError):
    """The driver refused memory before the wanted amount was held. Its text is what Berth matches."""


class Driver:
    """The few driver calls the proof needs, over a ctypes library (libcuda or a stand-in)."""

    def __init__(self, lib):
        self.lib = lib
        u64, u32, ptr = ctypes.c_uint64, ctypes.c_uint, ctypes.c_void_p
        for name, args in (("cuInit", [u32]),
                           ("cuDeviceGet", [ctypes.POINTER(ctypes.c_int), ctypes.c_int]),
                           ("cuCtxCreate_v2", [ctypes.POINTER(ptr), u32, ctypes.c_int]),
                           ("cuCtxDestroy_v2", [ptr]),
                           ("cuMemGetInfo_v2", [ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_size_t)]),
                           ("cuMemAlloc_v2", [ctypes.POINTER(u64), ctypes.c_size_t]),
                           ("cuMemsetD8_v2", [u64, ctypes.c_ubyte, ctypes.c_size_t]),
                           ("cuCtxSynchronize", []),
                           ("cuMemFree_v2", [u64]),
                           ("cuGetErrorName", [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)])):
            fn = getattr(lib, name)
            fn.argtypes = args
            fn.restype = ctypes.c_int

    def _check(self, call, code):
        if code != CUDA_SUCCESS:
            raise CudaError(call, code, self.error_name(code))

    def error_name(self, code):
        name = ctypes.c_char_p()
        if self.lib.cuGetErrorName(code, ctypes.byref(name)) != CUDA_SUCCESS or not name.value:
            return "CUDA error"
        return name.value.decode("ascii", "replace")

    def open(self, ordinal):
        """Initializes the driver and makes a context on the device with this ordinal; returns it."""
        self._check("cuInit", self.lib.cuInit(0))
        device = ctypes.c_int()
        self._check("cuDeviceGet(%d)" % ordinal, self.lib.cuDeviceGet(ctypes.byref(device), ordinal))
        context = ctypes.c_void_p()
        self._check("cuCtxCreate", self.lib.cuCtxCreate_v2(ctypes.byref(context), 0, device))
        return context

    def close(self, context):
        self._check("cuCtxDestroy", self.lib.cuCtxDestroy_v2(context))

    def mem_info(self):
        """(free, total) bytes of the current context's device."""
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        self._check("cuMemGetInfo", self.lib.cuMemGetInfo_v2(ctypes.byref(free), ctypes.byref(total)))
        return free.value, total.value

    def alloc(self, size):
        """A device pointer of size bytes, written once so the memory is really there; raises CudaError."""
        pointer = ctypes.c_uint64()
        self._check("cuMemAlloc(%d)" % size, self.lib.cuMemAlloc_v2(ctypes.byref(pointer), size))
        self._check("cuMemsetD8", self.lib.cuMemsetD8_v2(pointer.value, 1, size))
        self._check("cuCtxSynchronize", self.lib.cuCtxSynchronize())
        return pointer.value

    def free(self, pointer):
        self._check("cuMemFree", self.lib.cuMemFree_v2(pointer))


class FakeCuda:
    """A stand-in for libcuda with one device of ``free`` bytes: the same calls, arguments and codes."""

    CONTEXT_BYTES = 300 * 2**20

    def __init__(self, free, total=None):
        self.total = total if total is not None else free
        self.free_bytes = free
        self.allocations = {}
        self.next_pointer = 0x7f0000000000
        self.initialized = False
        self.contexts = 0
        self.calls = []

    @staticmethod
    def _out(reference):
        return reference._obj  # what ctypes.byref wrapped

    def cuInit(self, flags):
        self.calls.append("cuInit")
        self.initialized = True
        return CUDA_SUCCESS

    def cuDeviceGet(self, device, ordinal):
        self.calls.append("cuDeviceGet")
        if not self.initialized:
            return 3  # CUDA_ERROR_NOT_INITIALIZED
        if ordinal != 0:
            return 101  # CUDA_ERROR_INVALID_DEVICE
        self._out(device).value = ordinal
        return CUDA_SUCCESS

    def cuCtxCreate_v2(self, context, flags, device):
        self.calls.append("cuCtxCreate_v2")
        if self.free_bytes < self.CONTEXT_BYTES:
            return CUDA_ERROR_OUT_OF_MEMORY
        self.free_bytes -= self.CONTEXT_BYTES
        self.contexts += 1
        self._out(context).value = 0x1000 + self.contexts
        return CUDA_SUCCESS

    def cuCtxDestroy_v2(self, context):
        self.calls.append("cuCtxDestroy_v2")
        for size in self.allocations.values():
            self.free_bytes += size
        self.allocations.clear()
        self.free_bytes += self.CONTEXT_BYTES
        self.contexts -= 1
        return CUDA_SUCCESS

    def cuMemGetInfo_v2(self, free, total):
        self._out(free).value = self.free_bytes
        self._out(total).value = self.total
        return CUDA_SUCCESS

    def cuMemAlloc_v2(self, pointer, size):
        self.calls.append("cuMemAlloc_v2")
        if size > self.free_bytes:
            return CUDA_ERROR_OUT_OF_MEMORY
        self.free_bytes -= size
        self.next_pointer += size
        self.allocations[self.next_pointer] = size
        self._out(pointer).value = self.next_pointer
        return CUDA_SUCCESS

    def cuMemsetD8_v2(self, pointer, value, size):
        return CUDA_SUCCESS if self.allocations.get(pointer, 0) >= size else 1

    def cuCtxSynchronize(self):
        return CUDA_SUCCESS

    def cuMemFree_v2(self, pointer):
        self.calls.append("cuMemFree_v2")
        size = self.allocations.pop(pointer, None)
        if size is None:
            return 1  # CUDA_ERROR_INVALID_VALUE
        self.free_bytes += size
        return CUDA_SUCCESS

    def cuGetErrorName(self, code, name):
        names = {CUDA_ERROR_OUT_OF_MEMORY: b"CUDA_ERROR_OUT_OF_MEMORY", 1: b"CUDA_ERROR_INVALID_VALUE",
                 3: b"CUDA_ERROR_NOT_INITIALIZED", 101: b"CUDA_ERROR_INVALID_DEVICE"}
        if code not in names:
            return 1
        self._out(name).value = names[code]
        return CUDA_SUCCESS


class _FakeFunction:
    """Lets a FakeCuda method take argtypes and restype as a ctypes function does."""

    def __init__(self, fn):
        self.fn = fn
        self.argtypes = None
        self.restype = None

    def __call__(self, *args):
        return self.fn(*args)


class FakeLibrary:
    """FakeCuda's methods behind the attribute interface of a ctypes.CDLL."""

    def __init__(self, fake):
        self.fake = fake
        self._functions = {}

    def __getattr__(self, name):
        if name.startswith("_") or name == "fake":
            raise AttributeError(name)
        if name not in self._functions:
            self._functions[name] = _FakeFunction(getattr(self.fake, name))
        return self._functions[name]


def load_driver(env):
    """The driver: the stand-in when BERTH_PROOF_FAKE_CUDA names a size, else libcuda.so.1."""
    fake = env.get(FAKE_ENV)
    if fake:
        return Driver(FakeLibrary(FakeCuda(parse_size(fake))))
    return Driver(ctypes.CDLL("libcuda.so.1"))


def device_ordinal(env, device=None):
    """The CUDA ordinal of the task's device.

    ``device`` is a two-stage task's train device (``cuda:N``) or a ``--device`` given by hand: with
    every GPU visible in PCI bus order, the ordinal is N. Otherwise Berth narrowed
    CUDA_VISIBLE_DEVICES to the task's GPU, which is then ordinal 0.
    """
    if device is not None:
        m = re.fullmatch(r"(?:cuda:)?([0-9]+)", str(device))
        if not m:
            raise ValueError("not a GPU device: %r" % (device,))
        return int(m.group(1))
    visible = env.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        berth_device = env.get("BERTH_DEVICE", "")
        if berth_device.startswith("cuda:"):
            return int(berth_device[len("cuda:"):])
        raise ValueError("no device: give --device, or run it as a Berth task on a GPU")
    if not visible.strip():
        raise ValueError("CUDA_VISIBLE_DEVICES is empty: Berth placed this task on no GPU (BERTH_DEVICE=%s)"
                         % env.get("BERTH_DEVICE", "?"))
    return 0


def wanted_bytes(args, env, free_now):
    """How much to hold: --bytes, the reservation minus --margin, or what is free but --leave."""
    if args.bytes is not None:
        return parse_size(args.bytes)
    if args.leave is not None:
        return max(0, free_now - parse_size(args.leave))
    reservation = env.get("BERTH_GPU_MEMORY_BYTES")
    if not reservation:
        raise ValueError("--margin needs BERTH_GPU_MEMORY_BYTES (a one-stage Berth task with gpu-memory)")
    return max(0, int(reservation) - parse_size(args.margin))


class Holding:
    """Memory held on one device: allocated chunk by chunk, freed with the context."""

    def __init__(self, driver, ordinal):
        self.driver = driver
        self.ordinal = ordinal
        self.context = driver.open(ordinal)
        self.pointers = []
        self.held = 0

    def fill(self, wanted, chunk):
        """Allocates up to wanted bytes; returns the CudaError that stopped it short, or None."""
        while self.held < wanted:
            size = min(chunk, wanted - self.held)
            try:
                self.pointers.append(self.driver.alloc(size))
            except CudaError as error:
                return error
            self.held += size
        return None

    def release(self):
        for pointer in reversed(self.pointers):
            self.driver.free(pointer)
        self.pointers.clear()
        self.held = 0
        self.driver.close(self.context)


def out_of_memory(error, held, wanted, env):
    """The exception a refusal becomes, with the text Berth's classifier and berth_task.py match."""
    reservation = env.get("BERTH_GPU_MEMORY_BYTES")
    return CudaOutOfMemoryError("CUDA out of memory: %s after %s of %s wanted%s" % (
        error, gib(held), gib(wanted),
        " (reservation %s)" % gib(int(reservation)) if reservation else ""))


def hold(args, env, driver, ordinal, sleep=time.sleep, wait_for_signal=None):
    """Allocates what is wanted on the device, holds it, frees it; returns the figures.

    Raises CudaOutOfMemoryError (after holding what it got for --hold-on-oom seconds) when the driver
    refused before the wanted amount was held; CudaError for any other failure.
    """
    try:
        holding = Holding(driver, ordinal)
    except CudaError as error:
        if error.code != CUDA_ERROR_OUT_OF_MEMORY:
            raise
        # Not even the context fits: as much an out of memory as a refused allocation.
        raise CudaOutOfMemoryError("CUDA out of memory: %s making the context on device %d" % (error, ordinal))
    try:
        free_now, total = driver.mem_info()
        wanted = wanted_bytes(args, env, free_now)
        error = holding.fill(wanted, parse_size(args.chunk))
        figures = {"device_ordinal": ordinal, "wanted_bytes": wanted, "held_bytes": holding.held,
                   "device_total_bytes": total, "free_before_bytes": free_now, "pid": os.getpid()}
        if error is not None and error.code != CUDA_ERROR_OUT_OF_MEMORY:
            raise error
        if error is not None:
            log("refused at %s of %s: %s; holding it %.1f s" % (gib(holding.held), gib(wanted), error,
                                                               args.hold_on_oom))
            sleep(args.hold_on_oom)
            raise out_of_memory(error, holding.held, wanted, env)
        log("holding %s on device %d (pid %d)" % (gib(holding.held), ordinal, os.getpid()))
        if args.ready:
            write_json(args.ready, figures)
        if args.until_signal:
            (wait_for_signal or _wait_for_signal)()
        else:
            sleep(args.seconds)
        return figures
    finally:
        holding.release()


def _wait_for_signal():
    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: stop.append(1))
    while not stop:
        signal.pause()


def log(message):
    print("cuda_hold: %s" % message, file=sys.stderr, flush=True)


def write_json(path, value):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(value, f, sort_keys=True)
    os.replace(tmp, path)


def parser():
    p = argparse.ArgumentParser(prog="cuda_hold.py", description=__doc__.split("\n\n")[0])
    amount = p.add_mutually_exclusive_group()
    amount.add_argument("--bytes", help="hold this much (bytes, or e.g. 6GiB)")
    amount.add_argument("--margin", default="1GiB",
                        help="hold BERTH_GPU_MEMORY_BYTES minus this (default 1GiB, the context's room)")
    amount.add_argument("--leave", help="hold all the device's free memory but this much")
    p.add_argument("--device", help="device ordinal (or cuda:N) when not a Berth task")
    p.add_argument("--seconds", type=float, default=3.0, help="how long to hold it (default 3)")
    p.add_argument("--chunk", default="256MiB", help="allocation size (default 256MiB)")
    p.add_argument("--hold-on-oom", type=float, default=1.5,
                   help="seconds to hold what was got before reporting an out of memory (default 1.5)")
    p.add_argument("--until-signal", action="store_true", help="hold until SIGTERM, SIGINT or SIGHUP")
    p.add_argument("--ready", help="write the figures to this JSON file once it holds the memory")
    p.add_argument("--two-stage", action="store_true", help="speak Berth's load/train protocol (berth_task.py)")
    return p


def parse_args(argv):
    """The arguments, checked: sizes and durations that make sense; raises SystemExit(2) otherwise."""
    p = parser()
    args = p.parse_args(argv)
    for name in ("bytes", "margin", "leave", "chunk"):
        value = getattr(args, name)
        if value is not None:
            try:
                parse_size(value)
            except ValueError as error:
                p.error("--%s: %s" % (name, error))
    if parse_size(args.chunk) <= 0:
        p.error("--chunk must be above 0")
    if args.seconds < 0 or args.hold_on_oom < 0:
        p.error("--seconds and --hold-on-oom cannot be negative")
    if args.two_stage and (args.until_signal or args.leave is not None):
        p.error("--two-stage holds --bytes (or its reservation minus --margin) in its train stage")
    return args


def one_stage(args, env, driver, sleep=time.sleep):
    """A one-stage task (or a holder by hand): returns the exit code."""
    try:
        figures = hold(args, env, driver, device_ordinal(env, args.device), sleep)
    except CudaOutOfMemoryError as error:
        # Berth reads the attempt's stderr: this line is what makes it a GPU out of memory.
        print("RuntimeError: %s" % error, file=sys.stderr, flush=True)
        return EXIT_OOM
    except ValueError as error:
        log(str(error))
        return EXIT_USAGE
    except CudaError as error:
        log(str(error))
        return EXIT_CUDA
    if env.get("BERTH_TASK_DIR"):
        write_json(os.path.join(env["BERTH_TASK_DIR"], "result.json"), figures)
    return 0


def two_stage(args, env, driver, run_task=None, sleep=time.sleep):
    """A two-stage task: loads nothing, holds the memory in train on the device Berth names."""
    if run_task is None:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python"))
        from berth_task import run_task  # noqa: E402 - the task side of Berth's protocol, beside this repository

    def load(ctx):
        return {"loaded_at": time.time()}

    def train(state, device, ctx):
        if device == "cpu" and args.device is None:
            raise ValueError("cuda_hold trains on a GPU, and was handed the CPU (by hand, give --device)")
        ordinal = device_ordinal(env, args.device if device == "cpu" else device)
        figures = hold(args, env, driver, ordinal, sleep)
        figures["device"] = "cuda:%d" % ordinal
        return figures

    return run_task(load, train, env)


def main(argv=None, env=None):
    env = dict(os.environ) if env is None else env
    args = parse_args(sys.argv[1:] if argv is None else argv)
    driver = load_driver(env)
    if args.two_stage:
        two_stage(args, env, driver)
        return 0
    return one_stage(args, env, driver)


if __name__ == "__main__":
    sys.exit(main())
