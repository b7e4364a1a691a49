package dev.berth.report;

import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.report.RunReport;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Tasks still waiting that have never started: the reports count them in one line instead of a
 * row each, since such a row says nothing but the task's id. A run of 100,000 tasks stopped early
 * would otherwise write one table row per task it never reached.
 */
final class Unstarted {

  private Unstarted() {}

  /** Whether the task is pending and has never had an attempt. */
  static boolean is(TaskReport t) {
    return t.status() == TaskStatus.PENDING && t.attempts().isEmpty();
  }

  /** The ids of the run's tasks that {@link #is} holds for, to leave their sweep rows out. */
  static Set<String> ids(RunReport report) {
    Set<String> ids = new HashSet<>();
    report.groups().forEach(g -> g.tasks().stream().filter(Unstarted::is).forEach(t -> ids.add(t.id())));
    return ids;
  }

  /**
   * The line that stands for them, e.g. {@code 99940 pending tasks have not started (t-0-60 to t-99-999).}
   *
   * @param ids their ids in the order of the table they are left out of; not empty
   */
  static String line(List<String> ids) {
    String range = ids.size() == 1 ? ids.get(0) : ids.get(0) + " to " + ids.get(ids.size() - 1);
    return ids.size() == 1 ? "1 pending task has not started (" + range + ")."
        : ids.size() + " pending tasks have not started (" + range + ").";
  }
}
