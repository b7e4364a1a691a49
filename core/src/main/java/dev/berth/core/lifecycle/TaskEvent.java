package dev.berth.core.lifecycle;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One entry in a task's append-only history. Every event names the state it moves the task to;
 * current state, attempts and reports are folds over the list of events.
 */
public sealed interface TaskEvent
    permits TaskEvent.Released, TaskEvent.Launched, TaskEvent.Started, TaskEvent.Submitted, TaskEvent.Accounted,
        TaskEvent.Staged,
        TaskEvent.Trained, TaskEvent.Reported, TaskEvent.Ended, TaskEvent.Settled, TaskEvent.Reopened {

  /** When it happened. */
  Instant at();

  /** The state the task is in after this event. */
  TaskState target();

  /** The task may now start: its group's turn came and its dependencies are met. */
  record Released(Instant at) implements TaskEvent {
    /** Validates. */
    public Released {
      Objects.requireNonNull(at, "at");
    }

    @Override
    public TaskState target() {
      return TaskState.READY;
    }
  }

  /**
   * An attempt's process was started.
   *
   * @param attempt 1-based attempt number
   * @param placement where it runs and what was reserved
   * @param pid operating-system process id, or -1 when unknown
   * @param twoStage whether the process speaks the load/train protocol
   * @param learned the reservations that differ from the task's declared ones because they were learned
   *     from its template (or raised by an out-of-memory in it); empty when it reserved what it declared
   */
  record Launched(Instant at, int attempt, Placement placement, long pid, boolean twoStage, List<Learned> learned)
      implements TaskEvent {
    /** Validates. */
    public Launched {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(placement, "placement");
      learned = List.copyOf(learned);
      if (attempt < 1) {
        throw new IllegalArgumentException("attempt must be >= 1 but was " + attempt);
      }
    }

    /** A launch that reserved what the task declared. */
    public Launched(Instant at, int attempt, Placement placement, long pid, boolean twoStage) {
      this(at, attempt, placement, pid, twoStage, List.of());
    }

    @Override
    public TaskState target() {
      return twoStage ? TaskState.AVAILABLE : TaskState.RUNNING;
    }
  }

  /**
   * The running attempt's process exists and has this pid. Launches are journalled before their
   * processes exist (write-ahead), so the pid comes in this event; like {@link Submitted} it names
   * the running attempt without moving the task.
   *
   * @param attempt the running attempt's number
   * @param pid the operating-system process id
   */
  record Started(Instant at, int attempt, long pid) implements TaskEvent {
    /** Validates. */
    public Started {
      Objects.requireNonNull(at, "at");
      if (attempt < 1 || pid <= 0) {
        throw new IllegalArgumentException("a start needs an attempt >= 1 and a pid > 0");
      }
    }

    /** Not a transition: the task stays where it is; nominally running. */
    @Override
    public TaskState target() {
      return TaskState.RUNNING;
    }
  }

  /**
   * A cluster took the running attempt and named it: a Slurm job id such as {@code 23} or
   * {@code 23_1}. The task stays {@code RUNNING}; the id is kept with the attempt, for reports and
   * for finding the job again.
   *
   * @param attempt the running attempt's number
   * @param clusterId what the cluster calls it
   */
  record Submitted(Instant at, int attempt, String clusterId) implements TaskEvent {
    /** Validates. */
    public Submitted {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(clusterId, "clusterId");
      if (attempt < 1 || clusterId.isBlank()) {
        throw new IllegalArgumentException("a submission needs an attempt >= 1 and a cluster id");
      }
    }

    @Override
    public TaskState target() {
      return TaskState.RUNNING;
    }
  }

  /**
   * The cluster's accounting of the running attempt's job, recorded as the attempt ends, just before
   * its {@link Ended}: the times, node and state the cluster knows it by. The task stays where it is.
   *
   * @param attempt the running attempt's number
   * @param accounting what the cluster recorded
   */
  record Accounted(Instant at, int attempt, ClusterAccounting accounting) implements TaskEvent {
    /** Validates. */
    public Accounted {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(accounting, "accounting");
      if (attempt < 1) {
        throw new IllegalArgumentException("an accounting needs an attempt >= 1");
      }
    }

    /** Not a transition: the task stays where it is; nominally running. */
    @Override
    public TaskState target() {
      return TaskState.RUNNING;
    }
  }

  /**
   * A two-stage task's process moved to another stage: {@code LOADING}, {@code LOADED} (loaded, or
   * back after a GPU out-of-memory) or {@code TRAINED} (result reported).
   *
   * @param target the stage
   */
  record Staged(Instant at, TaskState target) implements TaskEvent {
    /** Validates that the target is a stage. */
    public Staged {
      Objects.requireNonNull(at, "at");
      if (target != TaskState.LOADING && target != TaskState.LOADED && target != TaskState.TRAINED) {
        throw new IllegalArgumentException("a stage is LOADING, LOADED or TRAINED, not " + target);
      }
    }
  }

  /**
   * A loaded two-stage task was handed a device and told to train.
   *
   * @param train 1-based number of this train call over the task's life (fedflow's train_numbers)
   * @param placement the device and the GPU memory reserved there (host resources stay as launched)
   */
  record Trained(Instant at, int train, Placement placement) implements TaskEvent {
    /** Validates. */
    public Trained {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(placement, "placement");
    }

    @Override
    public TaskState target() {
      return TaskState.TRAINING;
    }
  }

  /**
   * A two-stage task reported trouble in a stage: running out of host or GPU memory, or an
   * exception. Its process is still alive.
   *
   * @param outcome {@link Outcome#HOST_OOM}, {@link Outcome#GPU_OOM} or {@link Outcome#FAILED}
   * @param stage {@code LOAD} or {@code TRAIN}
   * @param message what the task said, with its traceback for an exception
   */
  record Reported(Instant at, Outcome outcome, String stage, String message) implements TaskEvent {
    /** Validates. */
    public Reported {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(stage, "stage");
      Objects.requireNonNull(message, "message");
    }

    @Override
    public TaskState target() {
      return TaskState.OUT_OF_MEMORY;
    }
  }

  /**
   * The current attempt ended.
   *
   * @param outcome how it ended
   * @param exitCode the process's exit code, or null when it never ran
   * @param message what went wrong, or null on success
   * @param target the state the task moves to: SUCCEEDED, FAILED, READY (retry), TIMED_OUT or CANCELLED
   * @param usage what the attempt was measured to use; {@link MeasuredUsage#NONE} when nothing was
   */
  record Ended(Instant at, Outcome outcome, Integer exitCode, String message, TaskState target, MeasuredUsage usage)
      implements TaskEvent {
    /** Validates. */
    public Ended {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(usage, "usage");
    }

    /** An ending of an attempt nothing measured. */
    public Ended(Instant at, Outcome outcome, Integer exitCode, String message, TaskState target) {
      this(at, outcome, exitCode, message, target, MeasuredUsage.NONE);
    }

    /** This ending with what the attempt was measured to use. */
    public Ended withUsage(MeasuredUsage measured) {
      return new Ended(at, outcome, exitCode, message, target, measured);
    }
  }

  /**
   * The task ended without (another) attempt: failed as impossible, cancelled, timed out while
   * queued, or unreachable.
   *
   * @param target a terminal state
   * @param reason why, for people
   */
  record Settled(Instant at, TaskState target, String reason) implements TaskEvent {
    /** Validates that the target is terminal. */
    public Settled {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(reason, "reason");
      if (!target.isTerminal()) {
        throw new IllegalArgumentException("Settled needs a terminal state but got " + target);
      }
    }
  }

  /**
   * A retry reopened the task after it ended without success (failed, cancelled, timed out or
   * unreachable): it waits for its turn and its dependencies again, as {@code QUEUED}. Its earlier
   * attempts stay in the history and the attempt numbers keep counting; its {@code retries} budget
   * counts from here afresh.
   *
   * @param reason why, for people: {@code "berth retry"}
   */
  record Reopened(Instant at, String reason) implements TaskEvent {
    /** Validates. */
    public Reopened {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public TaskState target() {
      return TaskState.QUEUED;
    }
  }
}
