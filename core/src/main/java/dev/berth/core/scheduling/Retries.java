package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.units.DurationText;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether an attempt's ordinary failure is retried, and when the retry may start. Every
 * answer is derived from the task's history: the number of ordinary failures so far is the retry
 * count, and the retry's earliest start is the failure's time plus the policy's delay.
 */
public final class Retries {

  /** Outcomes that use the task's {@code retries} budget. */
  public static final Set<Outcome> ORDINARY_FAILURES =
      EnumSet.of(Outcome.FAILED, Outcome.KILLED, Outcome.START_FAILED, Outcome.TIMED_OUT);

  private Retries() {}

  /**
   * The event that ends the running attempt, retrying when the budget allows.
   *
   * @param killedFor why Berth killed the process (or had it exit), or empty when it exited on its own;
   *     a {@link Outcome#FAILED} kill is one for the task's own fault, such as breaking the control
   *     protocol, and ends the attempt with its reason
   */
  public static TaskEvent.Ended ending(
      TaskRecord task, Instant at, int exitCode, Optional<Decision.Kill> killedFor) {
    if (killedFor.isPresent() && killedFor.get().outcome() == Outcome.CANCELLED) {
      return Endings.cancelled(at, exitCode, killedFor.get().reason());
    }
    if (killedFor.isPresent() && killedFor.get().outcome() == Outcome.TIMED_OUT) {
      return retryIfAllowed(task, new TaskEvent.Ended(
          at, Outcome.TIMED_OUT, exitCode, killedFor.get().reason(), TaskState.TIMED_OUT));
    }
    if (killedFor.isPresent() && killedFor.get().outcome() == Outcome.FAILED) {
      return retryIfAllowed(task, new TaskEvent.Ended(
          at, Outcome.FAILED, exitCode, killedFor.get().reason(), TaskState.FAILED));
    }
    return retryIfAllowed(task, Endings.exited(at, exitCode));
  }

  /** Turns a failing ending into a retry (target {@code READY}) when the task has retries left. */
  public static TaskEvent.Ended retryIfAllowed(TaskRecord task, TaskEvent.Ended ending) {
    boolean failed = ending.target() == TaskState.FAILED || ending.target() == TaskState.TIMED_OUT;
    if (!failed || !ORDINARY_FAILURES.contains(ending.outcome())) {
      return ending;
    }
    int used = failures(task);
    int allowed = task.spec().retry().retries();
    if (used >= allowed) {
      return ending;
    }
    String retry = "retry " + (used + 1) + " of " + allowed;
    var delay = task.spec().retry().delayBefore(used + 1);
    if (!delay.isZero()) {
      retry += " in " + DurationText.format(delay);
    }
    String message = ending.message() == null ? retry : ending.message() + "; " + retry;
    return new TaskEvent.Ended(ending.at(), ending.outcome(), ending.exitCode(), message, TaskState.READY, ending.usage());
  }

  /**
   * When a task waiting to be retried may start, or empty when it may start now (it is not waiting
   * for a retry delay).
   */
  public static Optional<Instant> readyAt(TaskRecord task) {
    if (task.history().attemptCount() == 0) {
      return Optional.empty();
    }
    List<TaskEvent> events = task.history().events();
    if (task.state() != TaskState.READY || events.isEmpty()) {
      return Optional.empty();
    }
    if (!(events.get(events.size() - 1) instanceof TaskEvent.Ended last)) {
      return Optional.empty();
    }
    int used = failures(task);
    return Optional.of(last.at().plus(task.spec().retry().delayBefore(Math.max(1, used))));
  }

  /**
   * Attempts that ended in an ordinary failure since the task was last reopened by a retry (each
   * round has the whole budget).
   */
  static int failures(TaskRecord task) {
    List<Attempt> attempts = task.history().attempts();
    int n = 0;
    for (int i = task.history().attemptsBeforeThisRound(); i < attempts.size(); i++) {
      Optional<Outcome> outcome = attempts.get(i).end().map(TaskEvent.Ended::outcome);
      if (outcome.isPresent() && ORDINARY_FAILURES.contains(outcome.get())) {
        n++;
      }
    }
    return n;
  }
}
