package dev.berth.cli;

import java.util.List;

/**
 * The exit codes of the {@code berth} command: the one list that {@code berth --help} prints and
 * that docs/exit-codes.md documents (a test compares them).
 */
public final class ExitCodes {
  /** Every task succeeded, or the command did what it was asked. */
  public static final int OK = 0;
  /** At least one task did not succeed. */
  public static final int TASKS_FAILED = 1;
  /** Bad input: spec, config or arguments. Nothing was started. */
  public static final int BAD_INPUT = 2;
  /** Berth itself failed (a bug, or the machine refused something Berth needs). */
  public static final int INTERNAL = 3;
  /** Interrupted by SIGHUP (the terminal closed): the run resumes with {@code berth run} or {@code berth resume}. */
  public static final int INTERRUPTED_SIGHUP = 129;
  /** Interrupted by SIGINT (Ctrl-C): the run resumes with {@code berth run} or {@code berth resume}. */
  public static final int INTERRUPTED_SIGINT = 130;
  /** Interrupted by SIGTERM (systemd, a container's stop, a job scheduler): the run resumes as after SIGINT. */
  public static final int INTERRUPTED_SIGTERM = 143;

  /** One exit code and what it means, as {@code --help} and the docs say it. */
  public record Code(int code, String meaning) {}

  /** Every exit code, in order. */
  public static final List<Code> ALL = List.of(
      new Code(OK, "every task succeeded, or the command did what it was asked"),
      new Code(TASKS_FAILED, "the run ended and some task did not succeed (failed, timed out, cancelled or unreachable)"),
      new Code(BAD_INPUT, "bad input: spec, config, arguments, workdir or task selectors; nothing was started"),
      new Code(INTERNAL, "Berth itself failed: a bug, or the machine refused something Berth needs"),
      new Code(INTERRUPTED_SIGHUP, "interrupted by SIGHUP; the run resumes with berth run or berth resume"),
      new Code(INTERRUPTED_SIGINT, "interrupted by SIGINT (Ctrl-C); the run resumes with berth run or berth resume"),
      new Code(INTERRUPTED_SIGTERM, "interrupted by SIGTERM; the run resumes with berth run or berth resume"));

  private ExitCodes() {}

  /** The exit code of a run interrupted by the signal with this number: 128 + n, as a shell reports it. */
  public static int interruptedBy(int signal) {
    return 128 + signal;
  }
}
