package dev.berth.client;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.Totals;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * How a group ended: each task's {@link TaskResult}, in the group's order.
 *
 * @param name the group's name
 * @param tasks its tasks' results, in submission order
 */
public record GroupResult(String name, List<TaskResult> tasks) {

  /** Copies the list. */
  public GroupResult {
    tasks = List.copyOf(tasks);
  }

  /**
   * The result of the task with this id.
   *
   * @throws NoSuchElementException when the group has no such task
   */
  public TaskResult task(String id) {
    return tasks.stream().filter(t -> t.id().equals(id)).findFirst()
        .orElseThrow(() -> new NoSuchElementException("group " + name + " has no task " + id));
  }

  /** Whether every task succeeded. */
  public boolean succeeded() {
    return tasks.stream().allMatch(TaskResult::succeeded);
  }

  /** The tasks that did not succeed. */
  public List<TaskResult> failures() {
    return tasks.stream().filter(t -> !t.succeeded()).toList();
  }

  /** Counts by status. */
  public Totals totals() {
    return Totals.of(tasks.stream().map(TaskResult::report).toList());
  }

  /**
   * Each task's result map by task id (fedflow's {@code group.result}), in order; see
   * {@link TaskResult#result()}. Tasks that left none map to an empty map.
   */
  public Map<String, Map<String, Object>> results() {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    tasks.forEach(t -> out.put(t.id(), t.result()));
    return out;
  }

  /** The group as {@code report.json} has it. */
  public GroupReport report() {
    List<TaskReport> reports = tasks.stream().map(TaskResult::report).toList();
    return new GroupReport(name, Totals.of(reports), reports);
  }
}
