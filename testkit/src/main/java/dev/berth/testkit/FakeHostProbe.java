package dev.berth.testkit;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.spi.HostProbe;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A {@link HostProbe} that reports what the test scripted: by default 2 logical CPUs, 16 GiB
 * total, 12 GiB available and utilization 0.1. A task gets a memory reading only when it is among
 * the pids asked about and the test scripted a figure for it; otherwise it is left out, as a real
 * probe leaves out a process that is gone. Setters return the probe. Thread-safe.
 */
public final class FakeHostProbe implements HostProbe {

  private int cpus = 2;
  private double utilization = 0.1;
  private long totalBytes = 16 * Snapshots.GIB;
  private long availableBytes = 12 * Snapshots.GIB;
  private final Map<TaskId, Long> taskMemory = new HashMap<>();
  private SortedMap<TaskId, Long> lastTaskPids = new TreeMap<>();
  private int reads;

  /** A probe with the default readings. */
  public FakeHostProbe() {}

  @Override
  public synchronized HostSnapshot read(Instant now, SortedMap<TaskId, Long> taskPids) {
    reads++;
    lastTaskPids = new TreeMap<>(taskPids);
    Snapshots.Builder snapshot = Snapshots.host()
        .at(now)
        .cpus(cpus)
        .utilization(utilization)
        .totalBytes(totalBytes)
        .availableBytes(availableBytes);
    taskPids.keySet().stream()
        .filter(taskMemory::containsKey)
        .forEach(task -> snapshot.taskMemory(task, taskMemory.get(task)));
    return snapshot.build();
  }

  /** Logical CPUs. */
  public synchronized FakeHostProbe cpus(int count) {
    this.cpus = count;
    return this;
  }

  /** Whole-host CPU busy fraction; negative means unknown. */
  public synchronized FakeHostProbe utilization(double fraction) {
    this.utilization = fraction;
    return this;
  }

  /** Reports the CPU utilization as unknown. */
  public FakeHostProbe unknownUtilization() {
    return utilization(-1);
  }

  /** Total memory in bytes. */
  public synchronized FakeHostProbe totalMemory(long bytes) {
    this.totalBytes = bytes;
    return this;
  }

  /** Available memory in bytes. */
  public synchronized FakeHostProbe availableMemory(long bytes) {
    this.availableBytes = bytes;
    return this;
  }

  /** Total memory in GiB (fractions allowed). */
  public FakeHostProbe totalGiB(double gib) {
    return totalMemory(Math.round(gib * Snapshots.GIB));
  }

  /** Available memory in GiB (fractions allowed). */
  public FakeHostProbe availableGiB(double gib) {
    return availableMemory(Math.round(gib * Snapshots.GIB));
  }

  /** Memory of the task's process tree, reported while the task is among the pids asked about. */
  public synchronized FakeHostProbe taskMemory(TaskId task, long bytes) {
    taskMemory.put(task, bytes);
    return this;
  }

  /** Stops reporting memory for the task. */
  public synchronized FakeHostProbe forgetTaskMemory(TaskId task) {
    taskMemory.remove(task);
    return this;
  }

  /** How many readings were taken. */
  public synchronized int reads() {
    return reads;
  }

  /** The task pids passed to the latest reading; empty before the first. */
  public synchronized SortedMap<TaskId, Long> lastTaskPids() {
    return new TreeMap<>(lastTaskPids);
  }
}
