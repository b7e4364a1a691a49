package dev.berth.core.lifecycle;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a cluster's accounting recorded about one attempt's job (Slurm's sacct): its id and state,
 * when it was submitted, started and ended, where it ran and how it exited. What the job used
 * (MaxRSS, TotalCPU) is the attempt's {@link MeasuredUsage}. The times are the cluster's: an
 * attempt's run is from {@link #startedAt} to {@link #endedAt}, the wait in the queue before it apart.
 *
 * @param jobId the job's id, e.g. {@code 23} or {@code 23_1}
 * @param state the state as the cluster printed it, e.g. {@code COMPLETED} or {@code CANCELLED by 0}
 * @param submittedAt when the job was submitted, if recorded
 * @param startedAt when the job started on a node, empty when it never started
 * @param endedAt when the job ended, empty when it had not
 * @param elapsed the run time the cluster recorded, if any
 * @param nodes the nodes it ran on ({@code node[1-2]}), empty when none was assigned
 * @param exitCode the exit code as the cluster printed it, {@code code:signal} (e.g. {@code 0:0})
 */
public record ClusterAccounting(
    String jobId, String state, Optional<Instant> submittedAt, Optional<Instant> startedAt, Optional<Instant> endedAt,
    Optional<Duration> elapsed, String nodes, String exitCode) {

  /** Validates. */
  public ClusterAccounting {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(submittedAt, "submittedAt");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(endedAt, "endedAt");
    Objects.requireNonNull(elapsed, "elapsed");
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(exitCode, "exitCode");
    if (jobId.isBlank()) {
      throw new IllegalArgumentException("cluster accounting needs a job id");
    }
  }

  /** How long the job waited in the queue: from its submission to its start, when both are known. */
  public Optional<Duration> queueWait() {
    if (submittedAt.isEmpty() || startedAt.isEmpty()) {
      return Optional.empty();
    }
    Duration wait = Duration.between(submittedAt.get(), startedAt.get());
    return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
  }
}
