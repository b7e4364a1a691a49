package dev.berth.runtime.report;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.os.LogTails;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Puts the last lines of each failing attempt's own standard error into a report, for the failure
 * tables and the console: {@code attempt-N.stderr.log} in the task's folder, or {@code stderr.log}
 * where the attempt has no file of its own (a run of an earlier Berth).
 */
public final class FailureTails {

  /** How many lines of a failing attempt's standard error a report shows. */
  public static final int LINES = LogTails.FAILURE_LINES;

  private FailureTails() {}

  /** {@code report} with the tails read from the task folders its tasks name. */
  public static RunReport added(RunReport report) {
    return report.withFailureTails(FailureTails::tail);
  }

  private static String tail(TaskReport task, AttemptReport attempt) {
    if (task.workdir() == null) {
      return null;
    }
    return of(Path.of(task.workdir()), attempt.number());
  }

  /**
   * The last {@link #LINES} lines of one attempt's standard error in the task folder {@code taskDir}
   * (control characters made harmless), as reports and the dashboard show them; empty when none.
   */
  public static String of(Path taskDir, int attempt) {
    Path own = taskDir.resolve("attempt-" + attempt + ".stderr.log");
    return LogTails.lastLines(Files.exists(own) ? own : taskDir.resolve("stderr.log"), LINES);
  }
}
