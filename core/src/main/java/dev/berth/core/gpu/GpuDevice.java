package dev.berth.core.gpu;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What a GPU probe saw on one device at one reading.
 *
 * <p>Readings are sanitized the way {@link dev.berth.core.resources.HostSnapshot} sanitizes the
 * host's: negative memory figures are rejected, free and used memory are clamped to the total, and
 * a utilization that is NaN or negative becomes unknown (-1) while one above 1 becomes 1.
 *
 * @param index the driver's device index (PCI bus order for NVML and nvidia-smi)
 * @param uuid the device UUID, e.g. {@code GPU-5c3e...} or {@code SIM-0}
 * @param name the product name, e.g. {@code NVIDIA A100-SXM4-80GB}
 * @param totalMemoryBytes device memory
 * @param usedMemoryBytes memory in use by any process, Berth's or not
 * @param freeMemoryBytes memory free for new allocations
 * @param utilization compute busy fraction in [0, 1], or -1 if unknown
 * @param simulated whether the device exists only in Berth's imagination ({@code --gpus sim:...})
 * @param processes the compute processes on the device, ordered by pid
 */
public record GpuDevice(
    int index,
    String uuid,
    String name,
    long totalMemoryBytes,
    long usedMemoryBytes,
    long freeMemoryBytes,
    double utilization,
    boolean simulated,
    List<GpuProcess> processes) {

  /** The marker for an unknown utilization. */
  public static final double UNKNOWN_UTILIZATION = -1;

  /** Validates, clamps and copies (processes are sorted by pid). */
  public GpuDevice {
    if (index < 0) {
      throw new IllegalArgumentException("GPU index must be >= 0 but was " + index);
    }
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(name, "name");
    if (totalMemoryBytes < 0 || usedMemoryBytes < 0 || freeMemoryBytes < 0) {
      throw new IllegalArgumentException(
          "GPU memory readings must be >= 0 but were total " + totalMemoryBytes + ", used "
              + usedMemoryBytes + ", free " + freeMemoryBytes);
    }
    freeMemoryBytes = Math.min(freeMemoryBytes, totalMemoryBytes);
    usedMemoryBytes = Math.min(usedMemoryBytes, totalMemoryBytes);
    if (Double.isNaN(utilization) || utilization < 0) {
      utilization = UNKNOWN_UTILIZATION;
    } else if (utilization > 1) {
      utilization = 1;
    }
    processes = processes.stream().sorted(Comparator.comparingLong(GpuProcess::pid)).toList();
  }

  /** The device id Berth uses in placements and reports: {@code cuda:<index>}. */
  public String id() {
    return id(index);
  }

  /** The device id for an index: {@code cuda:<index>}. */
  public static String id(int index) {
    return "cuda:" + index;
  }

  /** Whether the utilization is known. */
  public boolean utilizationKnown() {
    return utilization >= 0;
  }

  /** Used memory as a fraction of the total, 0 for a device that reports no memory. */
  public double memoryUsedFraction() {
    return totalMemoryBytes == 0 ? 0 : (double) usedMemoryBytes / totalMemoryBytes;
  }

  /** The same reading with other memory figures (free and used), e.g. for a simulated device. */
  public GpuDevice withMemory(long usedBytes, long freeBytes) {
    return new GpuDevice(index, uuid, name, totalMemoryBytes, usedBytes, freeBytes, utilization, simulated, processes);
  }

  /** The same reading with another process list. */
  public GpuDevice withProcesses(List<GpuProcess> newProcesses) {
    return new GpuDevice(
        index, uuid, name, totalMemoryBytes, usedMemoryBytes, freeMemoryBytes, utilization, simulated, newProcesses);
  }
}
