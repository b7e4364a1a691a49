package dev.berth.client;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * How a task ended: its status, error and attempts as the report has them, and access to what it
 * left in its folder. The result map is read on first use, from the calling thread.
 */
public final class TaskResult {

  private final TaskReport report;
  private final Path workdir;
  private final boolean twoStage;
  private volatile Optional<Map<String, Object>> result;

  TaskResult(TaskReport report, Path workdir, boolean twoStage) {
    this.report = report;
    this.workdir = workdir;
    this.twoStage = twoStage;
  }

  /** The task's id. */
  public String id() {
    return report.id();
  }

  /** The task's group. */
  public String group() {
    return report.group();
  }

  /**
   * How it ended: {@code SUCCEEDED}, {@code FAILED}, {@code CANCELLED}, {@code TIMED_OUT} or
   * {@code UNREACHABLE}; or, when the session was closed (or the JVM exited) before it ended,
   * {@code INTERRUPTED} (its attempt was stopped) or {@code PENDING} (it had not started): the next
   * session on the folder resumes it.
   */
  public TaskStatus status() {
    return report.status();
  }

  /** Whether it succeeded. */
  public boolean succeeded() {
    return report.status() == TaskStatus.SUCCEEDED;
  }

  /** Why it did not succeed (the last attempt's error with its stderr tail, or the reason it never ran). */
  public Optional<String> error() {
    return Optional.ofNullable(report.error());
  }

  /** Its attempts, oldest first: times, exit code, device, reservations, outcome. */
  public List<AttemptReport> attempts() {
    return report.attempts();
  }

  /** Its parameters (matrix values, tune options, map inputs). */
  public Map<String, String> params() {
    return report.params();
  }

  /** Its folder: {@code <workdir>/<group>/<id>}. */
  public Path workdir() {
    return workdir;
  }

  /** The task as {@code report.json} has it. */
  public TaskReport report() {
    return report;
  }

  /**
   * What the task reported about itself: the flat JSON object in {@code result.json} of its folder,
   * read as the reports read it (numbers as {@code Integer}, {@code Long}, {@code BigInteger} or
   * {@code BigDecimal}, nested values as JSON text). A two-stage task's result map (the one its
   * {@code train} returned) is there too: the engine writes it into {@code result.json}. Empty when
   * the task wrote none, e.g. when it failed before it could.
   *
   * @throws IllegalStateException when {@code result.json} exists but is not a readable JSON object
   */
  public Map<String, Object> result() {
    return resultIfAny().orElse(Map.of());
  }

  /** The result when the task left one; see {@link #result()}. */
  public Optional<Map<String, Object>> resultIfAny() {
    Optional<Map<String, Object>> r = result;
    if (r == null) {
      r = ResultFiles.resultJson(report, workdir);
      result = r;
    }
    return r;
  }

  /** A result value, when the result has a non-null one for {@code key}. */
  public Optional<Object> value(String key) {
    return Optional.ofNullable(result().get(key));
  }

  /** A numeric result value as a double, when the result has one for {@code key}. */
  public OptionalDouble number(String key) {
    Object v = result().get(key);
    if (v instanceof Number n) {
      return OptionalDouble.of(n.doubleValue());
    }
    if (v instanceof String s) {
      try {
        return OptionalDouble.of(new BigDecimal(s.strip()).doubleValue());
      } catch (NumberFormatException e) {
        return OptionalDouble.empty();
      }
    }
    return OptionalDouble.empty();
  }

  /**
   * Items a two-stage task published while it ran (fedflow's {@code set_item}), from
   * {@code items.json} in its folder; JSON objects and arrays come back as maps and lists. Empty
   * for a task that published none.
   */
  public Map<String, Object> items() {
    return ResultFiles.items(workdir);
  }

  /** Whether the task speaks the load/train protocol. */
  public boolean twoStage() {
    return twoStage;
  }

  /** What the task's latest attempt wrote to standard output ({@code stdout.log}), "" when nothing. */
  public String stdout() {
    return ResultFiles.read(ResultFiles.latestLog(workdir, "stdout"));
  }

  /** What the task's latest attempt wrote to standard error ({@code stderr.log}), "" when nothing. */
  public String stderr() {
    return ResultFiles.read(ResultFiles.latestLog(workdir, "stderr"));
  }

  /**
   * The result map when the task succeeded.
   *
   * @throws TaskFailedException when it did not succeed
   */
  public Map<String, Object> resultOrThrow() {
    if (!succeeded()) {
      throw new TaskFailedException(this);
    }
    return result();
  }

  @Override
  public String toString() {
    return "task " + id() + " " + status() + error().map(e -> ": " + e.lines().findFirst().orElse("")).orElse("");
  }
}
