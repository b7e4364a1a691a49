package dev.berth.core.lifecycle;

/**
 * Where a task is in its life. The names follow fedflow where the meaning is the same.
 *
 * <p>Normal path of a one-stage command task: {@code QUEUED -> INIT -> RUNNING -> EXITED}. Of a
 * two-stage task: {@code QUEUED -> INIT -> AVAILABLE -> LOADING -> WAITING -> TRAINING -> FINISHED
 * -> EXITED}. The legal moves are in {@link TaskTransitions}.
 */
public enum TaskState {
  /** Waiting for its group's turn or for its dependencies. */
  QUEUED,
  /** Ready to start; waiting for resources. No process exists. */
  INIT,
  /** A two-stage task's process is up and idle. */
  AVAILABLE,
  /** A two-stage task is loading. */
  LOADING,
  /** A two-stage task is loaded and waits for a device. */
  WAITING,
  /** A two-stage task is training on its device. */
  TRAINING,
  /** A one-stage task's process is running. */
  RUNNING,
  /** The task reported success; its result is being made durable. */
  FINISHED,
  /** An attempt ran out of memory; the task is about to be retried or failed. */
  INTERRUPT,
  /** Succeeded. */
  EXITED(true),
  /** Failed for good. */
  EXCEPTION(true),
  /** Cancelled by the user, or because what it needed was cancelled. */
  CANCELLED(true),
  /** Waited or ran longer than allowed. */
  TIMED_OUT(true),
  /** Can never run because a dependency can no longer be met. */
  UNREACHABLE(true);

  private final boolean terminal;

  TaskState() {
    this(false);
  }

  TaskState(boolean terminal) {
    this.terminal = terminal;
  }

  /** Whether no further transition can happen. */
  public boolean isTerminal() {
    return terminal;
  }

  /** Whether a task process exists in this state. */
  public boolean hasProcess() {
    switch (this) {
      case AVAILABLE:
      case LOADING:
      case WAITING:
      case TRAINING:
      case RUNNING:
      case FINISHED:
      case INTERRUPT:
        return true;
      default:
        return false;
    }
  }
}
