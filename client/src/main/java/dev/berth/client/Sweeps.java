package dev.berth.client;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.report.Objective;
import dev.berth.report.SweepTable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The halves of {@link Berth#map} and {@link Berth#tune} that need no session: expanding inputs, ranking trials. */
final class Sweeps {

  private Sweeps() {}

  /**
   * One task per input, from the template: a {@code Map} input fills {@code {key}} placeholders and
   * the task's params, any other input is {@code {}}; {@code {index}} is the input's position.
   *
   * @throws IllegalArgumentException when two inputs get the same id, or a placeholder has no value
   */
  static List<TaskBuilder> expand(TaskTemplate template, List<?> inputs) {
    List<TaskBuilder> tasks = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < inputs.size(); i++) {
      Object input = inputs.get(i);
      Map<String, String> values = new LinkedHashMap<>();
      Map<String, String> params = new LinkedHashMap<>();
      String bare = null;
      if (input instanceof Map<?, ?> m) {
        m.forEach((k, v) -> values.put(String.valueOf(k), Placeholders.text(v)));
        params.putAll(values);
      } else {
        bare = Placeholders.text(input);
        params.put("input", bare);
      }
      values.putIfAbsent("index", Integer.toString(i));
      TaskBuilder t = template.expand(values, bare, params);
      if (!ids.add(t.id())) {
        throw new IllegalArgumentException("template '" + template.id() + "' gives the id '" + t.id()
            + "' to two inputs; put {index} in the id");
      }
      tasks.add(t);
    }
    return tasks;
  }

  /** The trials of a grid search that ran as {@code result}, ranked by {@code objective}; tasks lacking its key rank last. */
  static TuneResult rank(String run, Map<String, ? extends List<?>> grid, GroupResult result, Objective objective) {
    Map<String, Map<String, Object>> results = new LinkedHashMap<>();
    for (TaskResult t : result.tasks()) {
      try {
        t.resultIfAny().ifPresent(r -> results.put(t.id(), r));
      } catch (IllegalStateException unreadable) {
        // a malformed result.json: the trial has no value and ranks last
      }
    }
    GroupReport sweep = result.report();
    RunReport report = new RunReport(run, result.succeeded() ? RunStatus.SUCCEEDED : RunStatus.FAILED,
        Instant.EPOCH, null, sweep.totals(), List.of(sweep));
    SweepTable table = SweepTable.of(report, results, objective);
    List<TuneResult.Trial> ranked = new ArrayList<>();
    for (SweepTable.Row row : table.rows()) {
      ranked.add(new TuneResult.Trial(option(grid, row.params()), result.task(row.taskId()),
          row.value(objective.key()).orElse(null)));
    }
    return new TuneResult(objective, table, ranked, result);
  }

  private static Map<String, Object> option(Map<String, ? extends List<?>> grid, Map<String, String> params) {
    Map<String, Object> option = new LinkedHashMap<>();
    grid.forEach((key, values) -> values.stream()
        .filter(v -> Placeholders.text(v).equals(params.get(key)))
        .findFirst()
        .ifPresent(v -> option.put(key, v)));
    return Collections.unmodifiableMap(option);
  }
}
