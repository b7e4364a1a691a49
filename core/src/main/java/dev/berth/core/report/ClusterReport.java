package dev.berth.core.report;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.ClusterAccounting;
import dev.berth.core.lifecycle.MeasuredUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One attempt's job as the cluster's accounting recorded it (sacct's columns), as reported.
 *
 * @param jobId the job's id, e.g. {@code 23_1}
 * @param state the state as the cluster printed it, e.g. {@code COMPLETED}, {@code CANCELLED by 0}
 * @param submittedAt when it was submitted, or null
 * @param startedAt when it started on a node, or null when it never started
 * @param endedAt when it ended, or null
 * @param elapsedMs the run time the cluster recorded, or null
 * @param queueWaitMs how long it waited in the queue, from its submission to its start, or null
 * @param nodes the nodes it ran on, empty when none was assigned
 * @param exitCode the exit code as the cluster printed it ({@code code:signal})
 * @param maxRssBytes the largest MaxRSS of its steps, or null
 * @param totalCpuSeconds its TotalCPU, or null
 */
public record ClusterReport(
    String jobId,
    String state,
    Instant submittedAt,
    Instant startedAt,
    Instant endedAt,
    Long elapsedMs,
    Long queueWaitMs,
    String nodes,
    String exitCode,
    Long maxRssBytes,
    Double totalCpuSeconds) {

  /** The report of an attempt's accounting, or null when the attempt has none. */
  static ClusterReport of(Attempt a) {
    if (a.accounting().isEmpty()) {
      return null;
    }
    ClusterAccounting c = a.accounting().get();
    MeasuredUsage u = a.usage();
    boolean cluster = u.exact();
    return new ClusterReport(c.jobId(), c.state(), c.submittedAt().orElse(null), c.startedAt().orElse(null),
        c.endedAt().orElse(null), millis(c.elapsed()), millis(c.queueWait()), c.nodes(), c.exitCode(),
        cluster && u.peakHostMemoryBytes().isPresent() ? u.peakHostMemoryBytes().getAsLong() : null,
        cluster && u.cpuSeconds().isPresent() ? u.cpuSeconds().getAsDouble() : null);
  }

  private static Long millis(Optional<Duration> d) {
    return d.map(Duration::toMillis).orElse(null);
  }
}
