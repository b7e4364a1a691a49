package dev.berth.runtime.engine;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuProcess;
import dev.berth.core.model.TaskId;
import dev.berth.core.resources.GpuReading;
import dev.berth.spi.GpuProbe;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Turns GPU probe readings into what the scheduler needs: the devices, how much GPU memory each
 * Berth task uses (its processes are found by walking each GPU process's parents up to a task's
 * process), and since when each device's free memory has not dropped.
 */
final class GpuTracker {

  /** A drop in free memory smaller than this share of the device is noise, not a new allocation. */
  private static final double DROP_SHARE = 0.01;

  private final GpuProbe probe;
  private final Map<Integer, Long> lastFree = new HashMap<>();
  private final SortedMap<Integer, Instant> stableSince = new TreeMap<>();

  GpuTracker(GpuProbe probe) {
    this.probe = probe;
  }

  GpuReading read(Instant now, SortedMap<TaskId, Long> taskPids) {
    List<GpuDevice> devices = probe.read();
    for (GpuDevice d : devices) {
      Long before = lastFree.put(d.index(), d.freeMemoryBytes());
      if (before != null && before - d.freeMemoryBytes() > d.totalMemoryBytes() * DROP_SHARE) {
        stableSince.put(d.index(), now);
      }
    }
    return new GpuReading(devices, taskMemory(devices, taskPids), stableSince);
  }

  String source() {
    return probe.source();
  }

  private static SortedMap<TaskId, Long> taskMemory(List<GpuDevice> devices, SortedMap<TaskId, Long> taskPids) {
    SortedMap<TaskId, Long> usage = new TreeMap<>();
    if (taskPids.isEmpty()) {
      return usage;
    }
    Map<Long, TaskId> byPid = new HashMap<>();
    taskPids.forEach((task, pid) -> byPid.put(pid, task));
    for (GpuDevice d : devices) {
      for (GpuProcess p : d.processes()) {
        if (p.usedMemoryBytes() < 0) {
          continue;
        }
        owner(p.pid(), byPid).ifPresent(task -> usage.merge(task, p.usedMemoryBytes(), Long::sum));
      }
    }
    return usage;
  }

  private static Optional<TaskId> owner(long pid, Map<Long, TaskId> byPid) {
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    while (h.isPresent()) {
      TaskId task = byPid.get(h.get().pid());
      if (task != null) {
        return Optional.of(task);
      }
      h = h.get().parent();
    }
    return Optional.empty();
  }
}
