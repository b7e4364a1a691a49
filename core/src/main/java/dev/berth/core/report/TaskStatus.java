package dev.berth.core.report;

import dev.berth.core.lifecycle.TaskState;

/**
 * A task's status as every view names it (console, {@code berth status}, reports, notifications and
 * the Java API's results): how it ended, or while it has not, {@code RUNNING}, {@code PENDING}, or
 * {@code INTERRUPTED} when Berth was stopped during its attempt.
 * {@link #of} is the one mapping from where a task is in its life.
 */
public enum TaskStatus {
  /** Exited successfully. */
  SUCCEEDED,
  /** Failed for good. */
  FAILED,
  /** Cancelled. */
  CANCELLED,
  /** Waited or ran too long. */
  TIMED_OUT,
  /** A dependency can no longer be met. */
  UNREACHABLE,
  /** Berth was stopped while its attempt ran; it starts again, without spending a retry, when the run resumes. */
  INTERRUPTED,
  /** An attempt is under way: its process runs, at any stage. */
  RUNNING,
  /** Not ended, and no attempt under way: waiting for its turn, its dependencies or resources. */
  PENDING;

  /** The status a user sees for a task in this lifecycle state. */
  public static TaskStatus of(TaskState state) {
    switch (state) {
      case SUCCEEDED:
        return SUCCEEDED;
      case FAILED:
        return FAILED;
      case CANCELLED:
        return CANCELLED;
      case TIMED_OUT:
        return TIMED_OUT;
      case UNREACHABLE:
        return UNREACHABLE;
      case INTERRUPTED:
        return INTERRUPTED;
      default:
        return state.hasProcess() ? RUNNING : PENDING;
    }
  }
}
