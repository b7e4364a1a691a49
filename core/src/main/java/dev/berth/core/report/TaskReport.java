package dev.berth.core.report;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.TaskRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

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
    return new TaskReport(s.id().value(), s.group(), status, s.command(), workdir, inTemplateOrder(s), error,
        attempts);
  }

  /**
   * The task's matrix values in the order its id's template names them ({@code train-{lr}-{seed}}: lr,
   * then seed), which is how the user thinks of the sweep, and the others after them by name. The map
   * keeps that order wherever it is copied as a sorted map.
   */
  static SortedMap<String, String> inTemplateOrder(TaskSpec s) {
    if (s.params().size() < 2) {
      return s.params();
    }
    String template = s.template();
    Comparator<String> order = Comparator.<String>comparingInt(name -> {
      int at = template.indexOf("{" + name + "}");
      return at < 0 ? Integer.MAX_VALUE : at;
    }).thenComparing(Comparator.naturalOrder());
    SortedMap<String, String> ordered = new TreeMap<>(order);
    ordered.putAll(s.params());
    return Collections.unmodifiableSortedMap(ordered);
  }
}
