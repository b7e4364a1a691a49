package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.units.DurationText;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A task's queue-timeout: how long it may wait to start, for its dependencies while pending or for
 * resources once ready, before it is settled as timed out. Judged within one {@link Pass}, as a
 * function of the task's history and the pass's {@code now}; a deadline not yet due wakes the next
 * pass by then.
 */
final class QueueTimeouts {

  private QueueTimeouts() {}

  /**
   * Settles a pending task that has waited for its dependencies past its queue-timeout; true if it did.
   *
   * @param pendingSince when it began to wait for them ({@link RunState#pendingSince})
   */
  static boolean pendingTimedOut(TaskRecord r, Optional<Instant> pendingSince, Pass pass) {
    Optional<Duration> limit = r.spec().find(TaskKeys.QUEUE_TIMEOUT);
    if (limit.isPresent() && pendingSince.isPresent() && pass.due(pendingSince.get().plus(limit.get()))) {
      pass.actions.add(new Decision.Settle(r.spec().id(), TaskState.TIMED_OUT,
          "waited " + DurationText.format(limit.get()) + " for its dependencies [queue-timeout]"));
      return true;
    }
    return false;
  }

  /**
   * Whether a ready task sits this pass out by time alone: its queue-timeout fell due, and it is
   * settled as timed out, or it waits for a retry delay that is not over ({@link Retries#readyAt}).
   */
  static boolean sitsOut(TaskRecord r, Pass pass) {
    Optional<Instant> readyAt = Retries.readyAt(r);
    return readyTimedOut(r, readyAt, pass) || readyAt.isPresent() && !pass.due(readyAt.get());
  }

  /**
   * Settles a ready task that has waited for resources past its queue-timeout; true if it did.
   *
   * @param readyAt the end of the task's retry delay, if it waits for one
   */
  private static boolean readyTimedOut(TaskRecord r, Optional<Instant> readyAt, Pass pass) {
    Optional<Duration> limit = r.spec().find(TaskKeys.QUEUE_TIMEOUT);
    if (limit.isEmpty()) {
      return false;
    }
    List<TaskEvent> events = r.history().events();
    // A task released in this very pass has no event yet: it becomes ready now.
    Instant readySince = events.isEmpty() ? pass.now : readyAt.orElse(events.get(events.size() - 1).at());
    if (!pass.due(readySince.plus(limit.get()))) {
      return false;
    }
    pass.actions.add(new Decision.Settle(r.spec().id(), TaskState.TIMED_OUT,
        "waited " + DurationText.format(limit.get()) + " for resources [queue-timeout]"));
    return true;
  }
}
