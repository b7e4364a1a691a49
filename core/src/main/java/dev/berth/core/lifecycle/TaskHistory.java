package dev.berth.core.lifecycle;

import dev.berth.core.model.TaskId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A task's append-only event history. The current state, the attempts and the last failure are
 * derived from it; nothing else is stored. Not thread-safe: one owner appends.
 */
public final class TaskHistory {

  private final TaskId task;
  private final List<TaskEvent> events = new ArrayList<>();
  private TaskState state = TaskState.QUEUED;
  private int attempts;

  /** An empty history: the task is {@link TaskState#QUEUED}. */
  public TaskHistory(TaskId task) {
    this.task = task;
  }

  /**
   * Appends an event after checking the transition.
   *
   * @throws IllegalTransitionException when the event's target is not reachable from the current state
   */
  public void append(TaskEvent event) {
    // The events that name something of the running attempt without moving the task: its process, its
    // cluster job, what the cluster recorded of that job.
    if (event instanceof TaskEvent.Started started) {
      appendToAttempt(event, started.attempt(), state.hasProcess(), "started");
      return;
    }
    if (event instanceof TaskEvent.Accounted accounted) {
      appendToAttempt(event, accounted.attempt(), state.hasProcess(), "accounted");
      return;
    }
    if (event instanceof TaskEvent.Submitted submitted) {
      appendToAttempt(event, submitted.attempt(), state == TaskState.RUNNING, "submitted");
      return;
    }
    TaskTransitions.check(task, state, event.target());
    if (event instanceof TaskEvent.Launched launched && launched.attempt() != attempts + 1) {
      throw new IllegalStateException(
          "task " + task + ": attempt " + launched.attempt() + " launched after attempt " + attempts);
    }
    events.add(event);
    state = event.target();
    if (event instanceof TaskEvent.Launched) {
      attempts++;
    }
  }

  /** Appends an event about the running attempt, which it must name, while the task is in a state that allows it. */
  private void appendToAttempt(TaskEvent event, int attempt, boolean allowed, String what) {
    if (!allowed || attempt != attempts) {
      throw new IllegalStateException("task " + task + ": attempt " + attempt + " " + what + " while the task is "
          + state + " in attempt " + attempts);
    }
    events.add(event);
  }

  /** The task. */
  public TaskId task() {
    return task;
  }

  /** The current state. */
  public TaskState state() {
    return state;
  }

  /** Number of attempts launched so far. */
  public int attemptCount() {
    return attempts;
  }

  /** Every event, oldest first. */
  public List<TaskEvent> events() {
    return Collections.unmodifiableList(events);
  }

  /** The attempts, oldest first, folded from the events. */
  public List<Attempt> attempts() {
    List<Attempt> result = new ArrayList<>();
    TaskEvent.Launched open = null;
    Optional<String> clusterId = Optional.empty();
    Optional<ClusterAccounting> accounting = Optional.empty();
    long pid = -1;
    for (TaskEvent e : events) {
      if (e instanceof TaskEvent.Launched l) {
        open = l;
        clusterId = Optional.empty();
        accounting = Optional.empty();
        pid = l.pid();
      } else if (e instanceof TaskEvent.Started s) {
        pid = s.pid();
      } else if (e instanceof TaskEvent.Submitted s) {
        clusterId = Optional.of(s.clusterId());
      } else if (e instanceof TaskEvent.Accounted a) {
        accounting = Optional.of(a.accounting());
      } else if (e instanceof TaskEvent.Ended end && open != null) {
        result.add(new Attempt(open.attempt(), open.at(), open.placement(), pid, clusterId, Optional.of(end),
            accounting));
        open = null;
      }
    }
    if (open != null) {
      result.add(new Attempt(open.attempt(), open.at(), open.placement(), pid, clusterId, Optional.empty(),
          accounting));
    }
    return result;
  }

  /** The attempt that is running now, if any. */
  public Optional<TaskEvent.Launched> currentLaunch() {
    if (!state.hasProcess()) {
      return Optional.empty();
    }
    for (int i = events.size() - 1; i >= 0; i--) {
      if (events.get(i) instanceof TaskEvent.Launched l) {
        return Optional.of(l);
      }
    }
    return Optional.empty();
  }

  /**
   * When the running attempt's process began ({@link TaskEvent.Started}), if it is known: empty while
   * no attempt runs, or the running one has not been seen to start (a pool call waiting for its engine).
   */
  public Optional<java.time.Instant> startedAt() {
    if (!state.hasProcess()) {
      return Optional.empty();
    }
    for (int i = events.size() - 1; i >= 0; i--) {
      TaskEvent e = events.get(i);
      if (e instanceof TaskEvent.Started s) {
        return Optional.of(s.at());
      }
      if (e instanceof TaskEvent.Launched) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** When the task last became ready to start, if it did. */
  public Optional<java.time.Instant> releasedAt() {
    for (int i = events.size() - 1; i >= 0; i--) {
      if (events.get(i) instanceof TaskEvent.Released r) {
        return Optional.of(r.at());
      }
    }
    return Optional.empty();
  }

  /**
   * How many attempts were launched before the task was last {@link TaskEvent.Reopened reopened}:
   * the attempts of earlier rounds, which the {@code retries} budget of this round does not count.
   * 0 for a task never reopened.
   */
  public int attemptsBeforeThisRound() {
    int launched = 0;
    int before = 0;
    for (TaskEvent e : events) {
      if (e instanceof TaskEvent.Launched) {
        launched++;
      } else if (e instanceof TaskEvent.Reopened) {
        before = launched;
      }
    }
    return before;
  }

  /**
   * The message of the event that ended the task, for failed, cancelled or unreachable tasks, and
   * for interrupted ones, why they stopped.
   */
  public Optional<String> finalReason() {
    if (!(state.isTerminal() || state == TaskState.INTERRUPTED) || events.isEmpty()) {
      return Optional.empty();
    }
    TaskEvent last = events.get(events.size() - 1);
    if (last instanceof TaskEvent.Settled s) {
      return Optional.of(s.reason());
    }
    if (last instanceof TaskEvent.Ended e) {
      return Optional.ofNullable(e.message());
    }
    return Optional.empty();
  }
}
