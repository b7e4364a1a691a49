package dev.berth.report;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What tasks reported about themselves: the flat JSON object each task may write to {@code result.json} in
 * its working folder, by task id, with values as {@link ResultFile} reads them.
 *
 * @param byTask each task's values by key, only for tasks whose {@code result.json} was read
 * @param warnings one line per {@code result.json} that could not be read, naming it relative to the run folder
 */
public record TaskResults(Map<String, Map<String, Object>> byTask, List<String> warnings) {

  /** Copies both, keeping null values and sorting each task's keys. */
  public TaskResults {
    Map<String, Map<String, Object>> copy = new TreeMap<>();
    byTask.forEach((task, values) -> copy.put(task, Collections.unmodifiableSortedMap(new TreeMap<>(values))));
    byTask = Collections.unmodifiableMap(copy);
    warnings = List.copyOf(warnings);
  }

  /** No results. */
  public static TaskResults empty() {
    return new TaskResults(Map.of(), List.of());
  }

  /** Results given directly, e.g. by a test or a caller that collected them another way. */
  public static TaskResults of(Map<String, ? extends Map<String, ?>> byTask) {
    Map<String, Map<String, Object>> m = new TreeMap<>();
    byTask.forEach((k, v) -> m.put(k, new TreeMap<>(v)));
    return new TaskResults(m, List.of());
  }

  /**
   * Reads {@code result.json} of every task that started, found as {@link ResultFile#read} finds it. Missing
   * files are skipped silently; unreadable ones become warnings. Never throws for a task's file. A pending task
   * that never started has no folder yet, so none is looked for.
   */
  public static TaskResults read(Path runDir, RunReport report) {
    Map<String, Map<String, Object>> found = new TreeMap<>();
    List<String> warnings = new ArrayList<>();
    for (GroupReport g : report.groups()) {
      for (TaskReport t : g.tasks()) {
        if (Unstarted.is(t)) {
          continue;
        }
        try {
          ResultFile.read(runDir, t).ifPresent(values -> found.put(t.id(), values));
        } catch (IllegalStateException e) {
          warnings.add(e.getMessage());
        }
      }
    }
    return new TaskResults(found, warnings);
  }

  /** The results of one task, empty when it wrote none. */
  public Map<String, Object> forTask(String taskId) {
    return byTask.getOrDefault(taskId, Map.of());
  }
}
