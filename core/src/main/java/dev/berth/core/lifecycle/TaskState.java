package dev.berth.core.lifecycle;

/**
 * Where a task is in its life.
 *
 * <p>Normal path of a one-stage command task: {@code QUEUED -> READY -> RUNNING -> SUCCEEDED}. Of a
 * two-stage task: {@code QUEUED -> READY -> AVAILABLE -> LOADING -> LOADED -> TRAINING -> TRAINED
 * -> SUCCEEDED}. The legal moves are in {@link TaskTransitions}.
 *
 * <p>The terminal states are endings: only a retry ({@link TaskEvent.Reopened}) moves a task out of
 * one (back to {@code QUEUED}), and never out of {@code SUCCEEDED}.
 */
public enum TaskState {
  /** Waiting for its group's turn or for its dependencies. */
  QUEUED,
  /** Ready to start; waiting for resources. No process exists. */
  READY,
  /** A two-stage task's process is up and idle. */
  AVAILABLE,
  /** A two-stage task is loading. */
  LOADING,
  /** A two-stage task is loaded and waits for a device. */
  LOADED,
  /** A two-stage task is training on its device. */
  TRAINING,
  /** A one-stage task's process is running. */
  RUNNING,
  /** A two-stage task's train stage reported success; its result is being made durable. */
  TRAINED,
  /** An attempt ran out of memory; the task is about to be retried or failed. */
  OUT_OF_MEMORY,
  /**
   * Berth was stopped (a signal, or a session closed) while an attempt ran: the attempt was ended,
   * and the task starts again when the run is resumed, without spending a retry. No process exists.
   */
  INTERRUPTED,
  /** Succeeded. */
  SUCCEEDED(true),
  /** Failed for good. */
  FAILED(true),
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

  /**
   * The state with this name, also under the name an older Berth wrote into its journal
   * ({@code INIT}, {@code WAITING}, {@code FINISHED}, {@code INTERRUPT}, {@code EXITED},
   * {@code EXCEPTION}), so that an old run still resumes.
   *
   * @throws IllegalArgumentException when no state has that name
   */
  public static TaskState named(String name) {
    return switch (name) {
      case "INIT" -> READY;
      case "WAITING" -> LOADED;
      case "FINISHED" -> TRAINED;
      case "INTERRUPT" -> OUT_OF_MEMORY;
      case "EXITED" -> SUCCEEDED;
      case "EXCEPTION" -> FAILED;
      default -> valueOf(name);
    };
  }

  /** Whether the task ended: nothing but a retry ({@link TaskEvent.Reopened}) moves it again. */
  public boolean isTerminal() {
    return terminal;
  }

  /** Whether a task process exists in this state. */
  public boolean hasProcess() {
    switch (this) {
      case AVAILABLE:
      case LOADING:
      case LOADED:
      case TRAINING:
      case RUNNING:
      case TRAINED:
      case OUT_OF_MEMORY:
        return true;
      default:
        return false;
    }
  }
}
