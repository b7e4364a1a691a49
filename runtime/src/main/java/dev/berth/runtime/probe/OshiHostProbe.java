package dev.berth.runtime.probe;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.runtime.exec.JnaLibrary;
import dev.berth.spi.HostProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.SortedMap;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor.TickType;
import oshi.hardware.CentralProcessor;
import oshi.hardware.GlobalMemory;

/**
 * Reads the real host through OSHI. CPU utilization is the whole-host busy fraction since the
 * previous {@link #read}, niced processes' share left out, so the first reading reports it as
 * unknown; readings less than a few hundred milliseconds apart repeat the figure before. Task memory is the resident
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
  private long previousOwnCpuMillis = ownCpuMillis();

  /** A probe of this machine. */
  public OshiHostProbe() {
    Machine machine = Machine.THIS;
    this.processor = machine.processor;
    this.memory = machine.memory;
    Path proc = Path.of("/proc");
    this.treeMemory = ProcTreeMemory.usable(proc)
        ? new ProcTreeMemory(proc, memory.getPageSize())
        : new OshiTreeMemory(machine.system.getOperatingSystem());
    this.logicalCpus = Math.max(1, processor.getLogicalProcessorCount());
  }

  /**
   * Reads now, on the calling thread, what every probe of this JVM shares: OSHI's view of the
   * processor (whose discovery walks the machine's devices) and memory. A probe made later, or
   * meanwhile on another thread, takes it as it is or waits for it; so a thread that starts early
   * keeps that work off the path to the first task.
   */
  public static void prepare() {
    Objects.requireNonNull(Machine.THIS);
  }

  /** The machine as OSHI finds it, once per JVM (the holder's class initialization makes other threads wait). */
  private static final class Machine {
    static {
      JnaLibrary.prepare(); // before OSHI's first use of JNA
    }

    static final Machine THIS = new Machine();

    final SystemInfo system = new SystemInfo();
    final CentralProcessor processor = system.getHardware().getProcessor();
    final GlobalMemory memory = system.getHardware().getMemory();
  }

  @Override
  public synchronized HostSnapshot read(Instant now, SortedMap<TaskId, Long> taskPids) {
    long[] ticks = processor.getSystemCpuLoadTicks();
    // OSHI caches the ticks for a moment; a reading that soon repeats the last figure.
    if (!Arrays.equals(ticks, previousTicks)) {
      long own = ownCpuMillis();
      lastUtilization = previousTicks == null ? -1
          : withoutOwn(busyFraction(previousTicks, ticks), own - previousOwnCpuMillis, totalTicks(previousTicks, ticks));
      previousTicks = ticks;
      previousOwnCpuMillis = own;
    }
    double utilization = lastUtilization;
    long total = Math.max(0, memory.getTotal());
    long available = Math.max(0, memory.getAvailable());
    return new HostSnapshot(now, logicalCpus, utilization, total, available, treeMemory.measure(taskPids));
  }

  /**
   * The busy share less what Berth's own JVM used: the utilization limit is about load from other
   * processes, and on a small machine the scheduler's own start-up would otherwise hold back its tasks.
   * OSHI's ticks are milliseconds summed over all CPUs, the same unit as the process's CPU time.
   */
  static double withoutOwn(double busy, long ownMillis, long totalMillis) {
    if (busy < 0 || totalMillis <= 0) {
      return busy;
    }
    return Math.max(0, busy - Math.max(0, ownMillis) / (double) totalMillis);
  }

  private static long totalTicks(long[] before, long[] after) {
    long total = 0;
    for (int i = 0; i < Math.min(before.length, after.length); i++) {
      total += Math.max(0, after[i] - before[i]);
    }
    return total;
  }

  private static long ownCpuMillis() {
    return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(0L);
  }

  /**
   * The share of CPU ticks between two readings that were not idle, waiting for I/O or spent in
   * niced processes, or -1 when it cannot be told (no ticks passed, counters went backwards,
   * malformed readings). Niced (low-priority) load gives way to the normal-priority tasks Berth
   * starts, so another user's {@code nice -n 19} batch job leaves the CPUs as free as idle ones.
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
    long idle = 0;
    for (TickType yielding : new TickType[] {TickType.IDLE, TickType.IOWAIT, TickType.NICE}) {
      idle += after[yielding.getIndex()] - before[yielding.getIndex()];
    }
    if (total <= 0) {
      return -1;
    }
    double busy = (double) (total - idle) / total;
    return Double.isNaN(busy) ? -1 : Math.min(1, Math.max(0, busy));
  }
}
