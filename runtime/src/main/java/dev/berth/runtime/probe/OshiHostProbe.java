package dev.berth.runtime.probe;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.spi.HostProbe;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.SortedMap;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.CentralProcessor.TickType;
import oshi.hardware.GlobalMemory;

/**
 * Reads the real host through OSHI. CPU utilization is the whole-host busy fraction since the
 * previous {@link #read}, so the first reading reports it as unknown; readings less than a few
 * hundred milliseconds apart repeat the figure before. Task memory is the resident
 * memory of each task's process tree, taken from {@code /proc} on Linux and through OSHI elsewhere.
 * Thread-safe; a reading costs one pass over the process table.
 */
public final class OshiHostProbe implements HostProbe {

  private final CentralProcessor processor;
  private final GlobalMemory memory;
  private final TreeMemory treeMemory;
  private final int logicalCpus;
  private long[] previousTicks;
  private double lastUtilization = -1;

  /** A probe of this machine. */
  public OshiHostProbe() {
    SystemInfo system = new SystemInfo();
    this.processor = system.getHardware().getProcessor();
    this.memory = system.getHardware().getMemory();
    Path proc = Path.of("/proc");
    this.treeMemory = ProcTreeMemory.usable(proc)
        ? new ProcTreeMemory(proc, memory.getPageSize())
        : new OshiTreeMemory(system.getOperatingSystem());
    this.logicalCpus = Math.max(1, processor.getLogicalProcessorCount());
  }

  @Override
  public synchronized HostSnapshot read(Instant now, SortedMap<TaskId, Long> taskPids) {
    long[] ticks = processor.getSystemCpuLoadTicks();
    // OSHI caches the ticks for a moment; a reading that soon repeats the last figure.
    if (!Arrays.equals(ticks, previousTicks)) {
      lastUtilization = previousTicks == null ? -1 : busyFraction(previousTicks, ticks);
      previousTicks = ticks;
    }
    double utilization = lastUtilization;
    long total = Math.max(0, memory.getTotal());
    long available = Math.max(0, memory.getAvailable());
    return new HostSnapshot(now, logicalCpus, utilization, total, available, treeMemory.measure(taskPids));
  }

  /**
   * The share of CPU ticks between two readings that were not idle or waiting for I/O, or -1 when
   * it cannot be told (no ticks passed, counters went backwards, malformed readings).
   */
  static double busyFraction(long[] before, long[] after) {
    int count = TickType.values().length;
    if (before.length < count || after.length < count) {
      return -1;
    }
    long total = 0;
    for (int i = 0; i < count; i++) {
      long delta = after[i] - before[i];
      if (delta < 0) {
        return -1;
      }
      total += delta;
    }
    long idle = after[TickType.IDLE.getIndex()] - before[TickType.IDLE.getIndex()]
        + after[TickType.IOWAIT.getIndex()] - before[TickType.IOWAIT.getIndex()];
    if (total <= 0) {
      return -1;
    }
    double busy = (double) (total - idle) / total;
    return Double.isNaN(busy) ? -1 : Math.min(1, Math.max(0, busy));
  }
}
