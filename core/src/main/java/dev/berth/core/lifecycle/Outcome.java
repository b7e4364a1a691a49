package dev.berth.core.lifecycle;

/** How one attempt ended. */
public enum Outcome {
  /** Exit code 0. */
  SUCCEEDED,
  /** A non-zero exit code, or a failure the task reported. */
  FAILED,
  /** Killed by a signal Berth did not send. */
  KILLED,
  /** Ran out of host memory (an OOM error, or the kernel's OOM kill). */
  HOST_OOM,
  /** Ran out of GPU memory. */
  GPU_OOM,
  /** The process could not be started at all. */
  START_FAILED,
  /** Killed by Berth because it ran past its timeout. */
  TIMED_OUT,
  /** Killed by Berth because the task or run was cancelled. */
  CANCELLED,
  /**
   * The scheduler stopped while the attempt ran and could not learn how it ended; the task runs
   * again without using any retry budget.
   */
  INTERRUPTED
}
