package dev.berth.core.lifecycle;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What one attempt was measured to use, as far as anything measured it: a local process tree
 * sampled or read from its cgroup, or a cluster's accounting (Slurm's MaxRSS). Reservations are
 * what Berth promised a task; this is what the task took, so reports can set the two side by side
 * and an out-of-memory retry can size the next reservation from evidence instead of a blind step.
 *
 * @param peakHostMemoryBytes the largest resident memory of the attempt's processes together
 * @param cpuSeconds CPU time, user plus system, of the attempt's processes
 * @param peakGpuMemoryBytes the largest GPU memory the attempt's processes held on their device
 * @param exact whether the figures are exact (a cgroup's own counters, a cluster's accounting)
 *     rather than sampled, which can miss a short peak
 */
public record MeasuredUsage(
    OptionalLong peakHostMemoryBytes,
    OptionalDouble cpuSeconds,
    OptionalLong peakGpuMemoryBytes,
    boolean exact) {

  /** Nothing was measured. */
  public static final MeasuredUsage NONE =
      new MeasuredUsage(OptionalLong.empty(), OptionalDouble.empty(), OptionalLong.empty(), false);

  /** Validates. */
  public MeasuredUsage {
    Objects.requireNonNull(peakHostMemoryBytes, "peakHostMemoryBytes");
    Objects.requireNonNull(cpuSeconds, "cpuSeconds");
    Objects.requireNonNull(peakGpuMemoryBytes, "peakGpuMemoryBytes");
  }

  /** Whether any figure was measured. */
  public boolean isKnown() {
    return peakHostMemoryBytes.isPresent() || cpuSeconds.isPresent() || peakGpuMemoryBytes.isPresent();
  }
}
