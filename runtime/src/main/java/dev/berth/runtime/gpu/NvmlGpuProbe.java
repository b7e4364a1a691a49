package dev.berth.runtime.gpu;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuProcess;
import dev.berth.runtime.exec.JnaLibrary;
import dev.berth.spi.GpuProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Reads the GPUs through the NVIDIA Management Library ({@code libnvidia-ml.so.1}, shipped with the
 * driver) by JNA: fast (microseconds per device) and what {@code nvidia-smi} itself uses.
 *
 * <p>A reading lists every device NVML counts, in index order. A device whose memory cannot be read
 * is reported with no memory (so nothing is placed on it), an unsupported utilization as unknown, and
 * processes NVML will not list as none; each such gap is named in {@link #lastError}. When even the
 * device count fails, the last good reading is served. Thread-safe: readings are serialized.
 */
public final class NvmlGpuProbe implements GpuProbe {

  /** The library file on Linux. */
  public static final String LINUX_LIBRARY = "libnvidia-ml.so.1";

  private static final int FIRST_CAPACITY = 32;

  private final NvmlLibrary nvml;
  private List<GpuDevice> last = List.of();
  private String lastError;
  private int processEntryPoint = 3;
  private boolean closed;

  NvmlGpuProbe(NvmlLibrary initialized) {
    this.nvml = Objects.requireNonNull(initialized, "initialized");
  }

  /** The probe, or empty when NVML cannot be loaded or initialized on this machine. */
  public static Optional<NvmlGpuProbe> load() {
    return load(problem -> {});
  }

  /**
   * The probe, or empty after telling {@code problems} why NVML cannot be used here (library not
   * found, driver not loaded, driver/library version mismatch).
   */
  public static Optional<NvmlGpuProbe> load(Consumer<String> problems) {
    return open(NvmlGpuProbe::loadLibrary, problems);
  }

  /** Loads through {@code loader} and initializes; the seam for tests. */
  static Optional<NvmlGpuProbe> open(Supplier<NvmlLibrary> loader, Consumer<String> problems) {
    NvmlLibrary library;
    try {
      library = loader.get();
    } catch (LinkageError | RuntimeException e) {
      problems.accept("NVML: the library could not be loaded (" + firstLine(e.getMessage()) + ")");
      return Optional.empty();
    }
    int status;
    try {
      status = library.nvmlInit_v2();
    } catch (LinkageError | RuntimeException e) {
      problems.accept("NVML: nvmlInit_v2 could not be called (" + firstLine(e.getMessage()) + ")");
      return Optional.empty();
    }
    if (status != NvmlStatus.SUCCESS) {
      problems.accept("NVML: initialization failed: " + NvmlStatus.describe(status));
      return Optional.empty();
    }
    return Optional.of(new NvmlGpuProbe(library));
  }

  /**
   * Looks for the library now, on the calling thread, so that a probe made later finds the answer
   * ready: where there is none, JNA's search (every library folder, and {@code ldconfig -p}) is a
   * good part of a run's start-up. See {@link #loadLibrary()}.
   */
  public static void prepare() {
    Objects.requireNonNull(Loaded.LIBRARY);
  }

  /**
   * The library, bound once per JVM; where it could not be loaded, that failure, every time: a
   * driver installed while Berth runs is seen by the next Berth.
   */
  private static NvmlLibrary loadLibrary() {
    if (Loaded.LIBRARY instanceof LinkageError failure) {
      throw failure;
    }
    if (Loaded.LIBRARY instanceof RuntimeException failure) {
      throw failure;
    }
    return (NvmlLibrary) Loaded.LIBRARY;
  }

  /** The outcome of the one load (the holder's class initialization makes other threads wait for it). */
  private static final class Loaded {
    static final Object LIBRARY = attempt();

    private static Object attempt() {
      JnaLibrary.prepare();
      List<String> names = Platform.isWindows() ? List.of("nvml") : List.of(LINUX_LIBRARY, "nvidia-ml");
      UnsatisfiedLinkError failure = null;
      for (String name : names) {
        try {
          return Native.load(name, NvmlLibrary.class);
        } catch (UnsatisfiedLinkError e) {
          failure = failure == null ? e : failure;
        } catch (LinkageError | RuntimeException e) { // JNA itself cannot load, say
          return e;
        }
      }
      return failure;
    }
  }

  @Override
  public synchronized List<GpuDevice> read() {
    if (closed) {
      lastError = "NVML: the probe is closed";
      return last;
    }
    try {
      IntByReference count = new IntByReference();
      int status = nvml.nvmlDeviceGetCount_v2(count);
      if (status != NvmlStatus.SUCCESS) {
        lastError = "NVML: device count: " + NvmlStatus.describe(status);
        return last;
      }
      List<String> problems = new ArrayList<>();
      List<GpuDevice> devices = new ArrayList<>();
      for (int index = 0; index < count.getValue(); index++) {
        device(index, problems).ifPresent(devices::add);
      }
      last = List.copyOf(devices);
      lastError = problems.isEmpty() ? null : "NVML: " + String.join("; ", problems);
      return last;
    } catch (LinkageError | RuntimeException e) {
      lastError = "NVML: reading failed: " + e;
      return last;
    }
  }

  private Optional<GpuDevice> device(int index, List<String> problems) {
    String id = GpuDevice.id(index);
    PointerByReference handleRef = new PointerByReference();
    int status = nvml.nvmlDeviceGetHandleByIndex_v2(index, handleRef);
    if (status != NvmlStatus.SUCCESS) {
      problems.add(id + ": handle: " + NvmlStatus.describe(status));
      return Optional.empty();
    }
    Pointer handle = handleRef.getValue();
    byte[] nameBuffer = new byte[NvmlValues.STRING_BUFFER_BYTES];
    status = nvml.nvmlDeviceGetName(handle, nameBuffer, nameBuffer.length);
    String name = status == NvmlStatus.SUCCESS ? NvmlValues.cString(nameBuffer) : "";
    byte[] uuidBuffer = new byte[NvmlValues.STRING_BUFFER_BYTES];
    status = nvml.nvmlDeviceGetUUID(handle, uuidBuffer, uuidBuffer.length);
    String uuid = status == NvmlStatus.SUCCESS ? NvmlValues.cString(uuidBuffer) : "";
    if (status != NvmlStatus.SUCCESS) {
      problems.add(id + ": UUID: " + NvmlStatus.describe(status));
    }

    long total = 0;
    long free = 0;
    long used = 0;
    long[] memory = new long[3];
    status = nvml.nvmlDeviceGetMemoryInfo(handle, memory);
    if (status == NvmlStatus.SUCCESS) {
      total = Math.max(0, NvmlValues.bytes(memory[0]));
      free = NvmlValues.bytes(memory[1]);
      used = NvmlValues.bytes(memory[2]);
      if (free < 0) {
        free = used < 0 ? 0 : Math.max(0, total - used);
      }
      if (used < 0) {
        used = Math.max(0, total - free);
      }
    } else {
      problems.add(id + ": memory: " + NvmlStatus.describe(status));
    }

    double utilization = GpuDevice.UNKNOWN_UTILIZATION;
    int[] rates = new int[2];
    status = nvml.nvmlDeviceGetUtilizationRates(handle, rates);
    if (status == NvmlStatus.SUCCESS) {
      utilization = NvmlValues.percent(rates[0]);
    } else if (status != NvmlStatus.NOT_SUPPORTED) {
      problems.add(id + ": utilization: " + NvmlStatus.describe(status));
    }

    List<GpuProcess> processes = processes(handle, id, problems);
    return Optional.of(new GpuDevice(index, uuid, name, total, used, free, utilization, false, processes));
  }

  /**
   * The compute processes through the newest entry point the driver has: {@code _v3}, else
   * {@code _v2}, else the unversioned one. Retries with a larger buffer when processes appeared
   * between the size query and the read.
   */
  private List<GpuProcess> processes(Pointer handle, String id, List<String> problems) {
    int capacity = FIRST_CAPACITY;
    for (int attempt = 0; attempt < 4; attempt++) {
      int stride = processEntryPoint == 1 ? NvmlValues.PROCESS_INFO_V1_BYTES : NvmlValues.PROCESS_INFO_BYTES;
      byte[] buffer = new byte[capacity * stride];
      IntByReference count = new IntByReference(capacity);
      int status;
      try {
        status = callProcesses(handle, count, buffer);
      } catch (UnsatisfiedLinkError missing) {
        if (processEntryPoint == 1) {
          problems.add(id + ": processes: no nvmlDeviceGetComputeRunningProcesses in this driver");
          return List.of();
        }
        processEntryPoint--;
        attempt--;
        continue;
      }
      if (status == NvmlStatus.SUCCESS) {
        return NvmlValues.processes(buffer, count.getValue(), stride);
      }
      if (status == NvmlStatus.NOT_SUPPORTED) {
        return List.of();
      }
      if (status != NvmlStatus.INSUFFICIENT_SIZE) {
        problems.add(id + ": processes: " + NvmlStatus.describe(status));
        return List.of();
      }
      capacity = Math.max(capacity * 2, count.getValue() + 8);
    }
    problems.add(id + ": processes: the process list kept growing while it was read");
    return List.of();
  }

  private int callProcesses(Pointer handle, IntByReference count, byte[] buffer) {
    return switch (processEntryPoint) {
      case 3 -> nvml.nvmlDeviceGetComputeRunningProcesses_v3(handle, count, buffer);
      case 2 -> nvml.nvmlDeviceGetComputeRunningProcesses_v2(handle, count, buffer);
      default -> nvml.nvmlDeviceGetComputeRunningProcesses(handle, count, buffer);
    };
  }

  @Override
  public String source() {
    return NVML;
  }

  @Override
  public synchronized Optional<String> lastError() {
    return Optional.ofNullable(lastError);
  }

  /** Shuts NVML down once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      nvml.nvmlShutdown();
    } catch (LinkageError | RuntimeException e) {
      // nothing left to release
    }
  }

  /** The first line of a JNA message, without the colon JNA puts before its details. */
  static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return "no detail";
    }
    String first = message.lines().findFirst().orElse("").strip();
    return first.endsWith(":") ? first.substring(0, first.length() - 1).strip() : first;
  }
}
