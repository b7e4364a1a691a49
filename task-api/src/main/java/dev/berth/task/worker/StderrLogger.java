package dev.berth.task.worker;

import java.io.PrintStream;
import java.text.MessageFormat;
import java.util.ResourceBundle;

/**
 * A {@link System.Logger} that writes {@code [task-id] LEVEL message} lines to stderr, which
 * Berth keeps in the task's {@code stderr.log}. Levels below INFO are dropped.
 */
final class StderrLogger implements System.Logger {

  private final String taskId;
  private final PrintStream err;

  StderrLogger(String taskId, PrintStream err) {
    this.taskId = taskId;
    this.err = err;
  }

  @Override
  public String getName() {
    return "berth-task";
  }

  @Override
  public boolean isLoggable(Level level) {
    return level != Level.OFF && level.getSeverity() >= Level.INFO.getSeverity();
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
    if (!isLoggable(level)) {
      return;
    }
    synchronized (err) {
      err.println("[" + taskId + "] " + level.getName() + " " + msg);
      if (thrown != null) {
        thrown.printStackTrace(err);
      }
    }
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String format, Object... params) {
    if (!isLoggable(level)) {
      return;
    }
    String msg = params == null || params.length == 0 ? format : MessageFormat.format(format, params);
    log(level, bundle, msg, (Throwable) null);
  }
}
