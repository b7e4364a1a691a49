package dev.berth.testkit;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Builds {@link HostSnapshot}s for tests, e.g. {@code
 * Snapshots.host().cpus(2).totalGiB(16).availableGiB(12).utilization(0.1).at(instant).build()}.
 */
public final class Snapshots {

  /** Bytes in one GiB. */
  public static final long GIB = 1L << 30;
  /** Bytes in one MiB. */
  public static final long MIB = 1L << 20;
  /** The default time of a snapshot: the start of a default {@link FakeClock}. */
  public static final Instant DEFAULT_TIME = Instant.parse("2026-01-01T00:00:00Z");

  private Snapshots() {}

  /**
   * A builder starting from 2 logical CPUs, 16 GiB total, 12 GiB available, utilization 0.1, no
   * task memory, taken at {@link #DEFAULT_TIME}.
   */
  public static Builder host() {
    return new Builder();
  }

  /** A mutable builder of one snapshot; each setter returns the builder. */
  public static final class Builder {
    private Instant at = DEFAULT_TIME;
    private int cpus = 2;
    private double utilization = 0.1;
    private long totalBytes = 16 * GIB;
    private long availableBytes = 12 * GIB;
    private final SortedMap<TaskId, Long> taskMemory = new TreeMap<>();

    private Builder() {}

    /** Logical CPUs. */
    public Builder cpus(int count) {
      this.cpus = count;
      return this;
    }

    /** Whole-host CPU busy fraction; negative means unknown. */
    public Builder utilization(double fraction) {
      this.utilization = fraction;
      return this;
    }

    /** Marks the CPU utilization as unknown. */
    public Builder unknownUtilization() {
      return utilization(-1);
    }

    /** Total memory in bytes. */
    public Builder totalBytes(long bytes) {
      this.totalBytes = bytes;
      return this;
    }

    /** Available memory in bytes. */
    public Builder availableBytes(long bytes) {
      this.availableBytes = bytes;
      return this;
    }

    /** Total memory in GiB (fractions allowed). */
    public Builder totalGiB(double gib) {
      return totalBytes(Math.round(gib * GIB));
    }

    /** Available memory in GiB (fractions allowed). */
    public Builder availableGiB(double gib) {
      return availableBytes(Math.round(gib * GIB));
    }

    /** Measured memory of a task's process tree, in bytes. */
    public Builder taskMemory(TaskId task, long bytes) {
      taskMemory.put(task, bytes);
      return this;
    }

    /** Measured memory of a task's process tree, in bytes; the task is given by its id text. */
    public Builder taskMemory(String task, long bytes) {
      return taskMemory(TaskId.of(task), bytes);
    }

    /** Measured memory of a task's process tree, in MiB (fractions allowed). */
    public Builder taskMemoryMiB(String task, double mib) {
      return taskMemory(TaskId.of(task), Math.round(mib * MIB));
    }

    /** When the snapshot was taken. */
    public Builder at(Instant instant) {
      this.at = instant;
      return this;
    }

    /** The snapshot; {@link HostSnapshot}'s own validation applies. */
    public HostSnapshot build() {
      return new HostSnapshot(at, cpus, utilization, totalBytes, availableBytes, taskMemory);
    }
  }
}
