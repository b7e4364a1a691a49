package dev.berth.core.resources;

import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a host probe saw at one instant. Readings the probe could not take are given as unknown
 * (negative utilization) rather than as zero.
 *
 * @param takenAt when the reading was taken
 * @param logicalCpus logical CPUs of the host
 * @param cpuUtilization whole-host CPU busy fraction in [0, 1] since the previous reading, or -1 if unknown
 * @param totalMemoryBytes physical memory
 * @param availableMemoryBytes memory available to new processes
 * @param taskMemoryBytes resident memory of each running Berth task's process tree, by task
 * @param gpus what the GPU probe saw
 * @param elsewhere what other Berth runs on this host hold and the probe may not show yet
 */
public record HostSnapshot(
    Instant takenAt,
    int logicalCpus,
    double cpuUtilization,
    long totalMemoryBytes,
    long availableMemoryBytes,
    SortedMap<TaskId, Long> taskMemoryBytes,
    GpuReading gpus,
    HeldElsewhere elsewhere) {

  /** Validates and copies; clamps utilization into [0, 1] unless it is the unknown marker. */
  public HostSnapshot {
    Objects.requireNonNull(takenAt, "takenAt");
    if (logicalCpus < 1) {
      throw new IllegalArgumentException("logicalCpus must be >= 1 but was " + logicalCpus);
    }
    if (totalMemoryBytes < 0 || availableMemoryBytes < 0) {
      throw new IllegalArgumentException("memory readings must be >= 0");
    }
    if (Double.isNaN(cpuUtilization) || cpuUtilization < 0) {
      cpuUtilization = -1;
    } else if (cpuUtilization > 1) {
      cpuUtilization = 1;
    }
    availableMemoryBytes = Math.min(availableMemoryBytes, totalMemoryBytes);
    taskMemoryBytes = Collections.unmodifiableSortedMap(new TreeMap<>(taskMemoryBytes));
    Objects.requireNonNull(gpus, "gpus");
    Objects.requireNonNull(elsewhere, "elsewhere");
  }

  /** A reading of a host where no other Berth run holds anything. */
  public HostSnapshot(
      Instant takenAt, int logicalCpus, double cpuUtilization, long totalMemoryBytes, long availableMemoryBytes,
      SortedMap<TaskId, Long> taskMemoryBytes, GpuReading gpus) {
    this(takenAt, logicalCpus, cpuUtilization, totalMemoryBytes, availableMemoryBytes, taskMemoryBytes, gpus,
        HeldElsewhere.NONE);
  }

  /** A reading of a host without GPUs. */
  public HostSnapshot(
      Instant takenAt, int logicalCpus, double cpuUtilization, long totalMemoryBytes, long availableMemoryBytes,
      SortedMap<TaskId, Long> taskMemoryBytes) {
    this(takenAt, logicalCpus, cpuUtilization, totalMemoryBytes, availableMemoryBytes, taskMemoryBytes, GpuReading.NONE);
  }

  /** The same reading with this GPU reading. */
  public HostSnapshot withGpus(GpuReading reading) {
    return new HostSnapshot(takenAt, logicalCpus, cpuUtilization, totalMemoryBytes, availableMemoryBytes,
        taskMemoryBytes, reading, elsewhere);
  }

  /** The same reading with what other Berth runs hold. */
  public HostSnapshot withElsewhere(HeldElsewhere held) {
    return new HostSnapshot(takenAt, logicalCpus, cpuUtilization, totalMemoryBytes, availableMemoryBytes,
        taskMemoryBytes, gpus, held);
  }

  /** Whether the CPU utilization is known. */
  public boolean cpuUtilizationKnown() {
    return cpuUtilization >= 0;
  }
}
