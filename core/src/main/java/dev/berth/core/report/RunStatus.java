package dev.berth.core.report;

/** How a whole run ended. */
public enum RunStatus {
  /** Every task succeeded. */
  SUCCEEDED,
  /** At least one task did not succeed. */
  FAILED,
  /** The run was cancelled before every task ended. */
  CANCELLED
}
