package dev.berth.core.report;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.TaskRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/**
 * One task as reported.
 *
 * @param id task id
 * @param group its group
 * @param status how it ended
 * @param command its argument vector
 * @param workdir its working folder
 * @param params matrix values it was expanded from
 * @param error why it did not succeed, or null
 * @param attempts its attempts, oldest first
 */
public record TaskReport(
    String id,
    String group,
    TaskStatus status,
    List<String> command,
    String workdir,
    SortedMap<String, String> params,
    String error,
    List<AttemptReport> attempts) {

  /** Copies the lists. */
  public TaskReport {
    command = List.copyOf(command);
    attempts = List.copyOf(attempts);
  }

  /** The same task with these attempts. */
  public TaskReport withAttempts(List<AttemptReport> list) {
    return new TaskReport(id, group, status, command, workdir, params, error, list);
  }

  /**
   * The report of a task as its history says so far: each attempt with its stage times and
   * failing stage, and the reason it did not succeed.
   *
   * @param workdir the task's working folder, as the report shows it
   */
  public static TaskReport of(TaskRecord r, String workdir) {
    List<AttemptReport> attempts = new ArrayList<>();
    for (Attempt a : r.history().attempts()) {
      attempts.add(AttemptReport.of(a, r.history().events()));
    }
    TaskStatus status = TaskStatus.of(r.state());
    String error = status == TaskStatus.SUCCEEDED ? null : r.history().finalReason().orElse(null);
    TaskSpec s = r.spec();
    return new TaskReport(s.id().value(), s.group(), status, s.command(), workdir, s.params(), error, attempts);
  }
}
