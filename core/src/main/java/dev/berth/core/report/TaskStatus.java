package dev.berth.core.report;

import dev.berth.core.lifecycle.TaskState;

/** How a task ended, as reports name it. {@code PENDING} only appears for a run that did not finish. */
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
  /** Not ended yet. */
  PENDING;

  /** The report status of a lifecycle state. */
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
      default:
        return PENDING;
    }
  }
}
