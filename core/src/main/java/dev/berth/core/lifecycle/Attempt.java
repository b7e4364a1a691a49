package dev.berth.core.lifecycle;

import java.time.Instant;
import java.util.Optional;

/**
 * One attempt of a task, folded from its {@link TaskEvent.Launched}, {@link TaskEvent.Submitted},
 * {@link TaskEvent.Accounted} and {@link TaskEvent.Ended}.
 *
 * @param number 1-based
 * @param startedAt when the process started (for a cluster's job: when Berth submitted it)
 * @param placement where it ran and what was reserved
 * @param pid process id, or -1
 * @param clusterId the cluster's id of the attempt (a Slurm job id), once {@link TaskEvent.Submitted submitted}
 * @param end how it ended; empty while it runs
 * @param accounting what the cluster's accounting recorded of the attempt's job, once it ended; empty
 *     for a local process, and for a job whose accounting was not there (or in a journal of a Berth
 *     that recorded none)
 */
public record Attempt(
    int number, Instant startedAt, Placement placement, long pid, Optional<String> clusterId,
    Optional<TaskEvent.Ended> end, Optional<ClusterAccounting> accounting) {

  /** What the attempt was measured to use, once it ended and if anything measured it. */
  public MeasuredUsage usage() {
    return end.map(TaskEvent.Ended::usage).orElse(MeasuredUsage.NONE);
  }

  /** Whether the attempt is still running. */
  public boolean isRunning() {
    return end.isEmpty();
  }

  /**
   * When the attempt began to run: the cluster's start of its job when there is accounting (the queue
   * wait before it is not run time; a job that never started ran for no time), else {@link #startedAt}.
   */
  public Instant ranFrom() {
    if (accounting.isEmpty()) {
      return startedAt;
    }
    ClusterAccounting c = accounting.get();
    // a job that never started ran for no time: from its end
    return c.startedAt().or(c::endedAt).or(() -> end.map(TaskEvent.Ended::at)).orElse(startedAt);
  }

  /**
   * When the attempt stopped running, once it ended: the cluster's end of its job when the accounting
   * has one, else when Berth saw it end.
   */
  public Optional<Instant> ranUntil() {
    if (end.isEmpty()) {
      return Optional.empty();
    }
    Instant until = accounting.flatMap(ClusterAccounting::endedAt).orElse(end.get().at());
    return Optional.of(until.isBefore(ranFrom()) ? ranFrom() : until);
  }
}
