package dev.berth.core.report;

import java.util.List;

/**
 * One group as reported.
 *
 * @param name group name
 * @param totals counts of its tasks by status
 * @param tasks its tasks in submission order
 */
public record GroupReport(String name, Totals totals, List<TaskReport> tasks) {

  /** Copies the list. */
  public GroupReport {
    tasks = List.copyOf(tasks);
  }
}
