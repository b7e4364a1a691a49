package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import java.time.Instant;

/**
 * Turns what happened to an attempt's process into the event that ends the attempt: its outcome,
 * message and the state the task moves to.
 */
public final class Endings {

  private static final String[] SIGNALS = {
    "", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL",
    "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"
  };

  private Endings() {}

  /**
   * The ending of a process that exited on its own (not killed by Berth).
   *
   * @param exitCode the exit status as the JVM reports it: 128 + n for death by signal n
   */
  public static TaskEvent.Ended exited(Instant at, int exitCode) {
    if (exitCode == 0) {
      return new TaskEvent.Ended(at, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED);
    }
    if (exitCode > 128 && exitCode < 128 + 65) {
      int signal = exitCode - 128;
      return new TaskEvent.Ended(
          at, Outcome.KILLED, exitCode, "killed by signal " + signal + signalName(signal), TaskState.FAILED);
    }
    return new TaskEvent.Ended(at, Outcome.FAILED, exitCode, "exited with code " + exitCode, TaskState.FAILED);
  }

  /**
   * The ending of a two-stage attempt whose process exited with code 0 before it reported a
   * finished train stage: a failure, since no result came.
   *
   * @param state where the task was: {@code AVAILABLE}, {@code LOADING}, {@code LOADED} or {@code TRAINING}
   */
  public static TaskEvent.Ended withoutResult(Instant at, TaskState state) {
    return new TaskEvent.Ended(at, Outcome.FAILED, 0, "exited 0 " + during(state) + " without a result", TaskState.FAILED);
  }

  /** When, in a task's life, something happened in this state, for people: {@code "during training"}. */
  public static String during(TaskState state) {
    return switch (state) {
      case AVAILABLE -> "before loading";
      case LOADING -> "while loading";
      case LOADED -> "while waiting for a device";
      case TRAINING -> "during training";
      case TRAINED -> "after training";
      case OUT_OF_MEMORY -> "after reporting a failure";
      case RUNNING -> "while running";
      default -> "while " + state.name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  /** The ending of an attempt Berth killed because the task or the run was cancelled. */
  public static TaskEvent.Ended cancelled(Instant at, Integer exitCode, String reason) {
    return new TaskEvent.Ended(at, Outcome.CANCELLED, exitCode, reason, TaskState.CANCELLED);
  }

  /**
   * The ending of an attempt Berth stopped because Berth itself was stopped (a signal, a session
   * closed): the ending the process earned on its own when that was success (it finished while
   * Berth was stopping), otherwise an interruption: the task runs again when the run resumes,
   * without spending a retry.
   *
   * @param earned how the attempt would have ended had Berth not stopped it
   */
  public static TaskEvent.Ended interrupted(TaskEvent.Ended earned, String reason) {
    if (earned.target() == TaskState.SUCCEEDED) {
      return earned;
    }
    return new TaskEvent.Ended(earned.at(), Outcome.INTERRUPTED, earned.exitCode(),
        reason + "; the task runs again when the run resumes", TaskState.INTERRUPTED, earned.usage());
  }

  /**
   * The ending of an attempt that did not run, or whose end is not known, for no fault of the task (its
   * submission waits for room, its parent's job is gone, Berth stopped around it): the task is ready
   * again, without spending a retry.
   */
  public static TaskEvent.Ended readyAgain(Instant at, String reason) {
    return new TaskEvent.Ended(at, Outcome.INTERRUPTED, null, reason, TaskState.READY);
  }

  /** The ending of an attempt whose process could not be started. */
  public static TaskEvent.Ended startFailed(Instant at, String message) {
    return new TaskEvent.Ended(at, Outcome.START_FAILED, null, "could not start: " + message, TaskState.FAILED);
  }

  private static String signalName(int signal) {
    return signal < SIGNALS.length ? " (" + SIGNALS[signal] + ")" : "";
  }
}
