package dev.berth.core.lifecycle;

import java.time.Instant;
import java.util.Optional;

/**
 * One attempt of a task, folded from its {@link TaskEvent.Launched}, {@link TaskEvent.Submitted} and
 * {@link TaskEvent.Ended}.
 *
 * @param number 1-based
 * @param startedAt when the process started
 * @param placement where it ran and what was reserved
 * @param pid process id, or -1
 * @param clusterId the cluster's id of the attempt (a Slurm job id), once {@link TaskEvent.Submitted submitted}
 * @param end how it ended; empty while it runs
 */
public record Attempt(
    int number, Instant startedAt, Placement placement, long pid, Optional<String> clusterId,
    Optional<TaskEvent.Ended> end) {

  /** What the attempt was measured to use, once it ended and if anything measured it. */
  public MeasuredUsage usage() {
    return end.map(TaskEvent.Ended::usage).orElse(MeasuredUsage.NONE);
  }

  /** Whether the attempt is still running. */
  public boolean isRunning() {
    return end.isEmpty();
  }
}
