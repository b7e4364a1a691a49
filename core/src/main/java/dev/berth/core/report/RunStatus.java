package dev.berth.core.report;

/** How a whole run ended. */
public enum RunStatus {
  /** Every task succeeded. */
  SUCCEEDED,
  /** At least one task did not succeed. */
  FAILED,
  /** The run was cancelled before every task ended. */
  CANCELLED,
  /**
   * Berth was stopped (by SIGINT, SIGTERM or SIGHUP, or a session closed) before every task ended:
   * the run resumes where it stopped ({@code berth run} again, or {@code berth resume}).
   */
  INTERRUPTED
}
