package dev.berth.cli;

/** The exit codes of the {@code berth} command. */
public final class ExitCodes {
  /** Every task succeeded, or the command did what it was asked. */
  public static final int OK = 0;
  /** At least one task did not succeed. */
  public static final int TASKS_FAILED = 1;
  /** Bad input: spec, config or arguments. Nothing was started. */
  public static final int BAD_INPUT = 2;
  /** Berth itself failed (a bug, or the machine refused something Berth needs). */
  public static final int INTERNAL = 3;

  private ExitCodes() {}
}
