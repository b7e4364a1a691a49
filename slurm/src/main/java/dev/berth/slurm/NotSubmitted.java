package dev.berth.slurm;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.model.TaskId;
import dev.berth.spi.Execution;
import java.util.Optional;

/**
 * An attempt {@link SlurmExecutor} did not submit because a parent had already ended in a way its
 * dependency does not accept. It has no job; its exit, {@link SlurmEnding#TERMINATED_EXIT} as for a job
 * Slurm cancels for the same reason, is reported at once with the verdict {@code UPSTREAM_NOT_MET}.
 */
final class NotSubmitted implements Execution {

  private final TaskId task;
  private final int attempt;
  private final String reason;
  private final Object owner;

  NotSubmitted(TaskId task, int attempt, String reason, Object owner) {
    this.task = task;
    this.attempt = attempt;
    this.reason = reason;
    this.owner = owner;
  }

  @Override
  public long pid() {
    return -1;
  }

  @Override
  public boolean isAlive() {
    return false;
  }

  @Override
  public void terminate(long graceMillis) {
    // nothing runs
  }

  @Override
  public Optional<ClusterVerdict> verdict() {
    return Optional.of(new ClusterVerdict(ClusterVerdict.Kind.UPSTREAM_NOT_MET, reason));
  }

  boolean startedBy(Object executor) {
    return owner == executor;
  }

  @Override
  public String toString() {
    return "task " + task + " attempt " + attempt + ", not submitted: " + reason;
  }
}
