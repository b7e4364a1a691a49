package dev.berth.report;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The tasks a matrix expanded into, with their matrix values and results, best first when an objective is
 * given: the table that answers "which setting won?".
 *
 * @param objective what ranks the rows, or null to keep submission order
 * @param paramNames matrix parameter names over all rows, in the order the tasks' ids name them
 * @param resultKeys result keys over all rows: the objective's key first, then the others sorted; a
 *     key that only repeats a matrix value of the same name in every row is left out
 * @param rows one per matrix task; with an objective, best first and tasks lacking its key last, ties in
 *     submission order
 */
public record SweepTable(Objective objective, List<String> paramNames, List<String> resultKeys, List<Row> rows) {

  /**
   * One task of the sweep.
   *
   * @param taskId task id
   * @param group its group
   * @param params its matrix values
   * @param results what its {@code result.json} held (null values kept), empty when it wrote none
   * @param status how it ended
   */
  public record Row(
      String taskId, String group, SortedMap<String, String> params, SortedMap<String, Object> results, TaskStatus status) {

    /** Copies the maps (the params keep their order). */
    public Row {
      params = Collections.unmodifiableSortedMap(new TreeMap<>(params));
      results = Collections.unmodifiableSortedMap(new TreeMap<>(results));
    }

    /** The row's value for a result key, when it has a non-null one. */
    public Optional<Object> value(String key) {
      return Optional.ofNullable(results.get(key));
    }
  }

  /** Copies the lists. */
  public SweepTable {
    paramNames = List.copyOf(paramNames);
    resultKeys = List.copyOf(resultKeys);
    rows = List.copyOf(rows);
  }

  /**
   * The sweep of a run: every task with matrix values, in every group.
   *
   * @param results result values by task id (see {@link TaskResults#byTask()})
   * @param objective what ranks the rows, or null to keep submission order
   */
  public static SweepTable of(RunReport report, Map<String, ? extends Map<String, ?>> results, Objective objective) {
    List<Row> rows = new ArrayList<>();
    Set<String> params = new LinkedHashSet<>();
    TreeSet<String> keys = new TreeSet<>();
    for (GroupReport g : report.groups()) {
      for (TaskReport t : g.tasks()) {
        if (t.params() == null || t.params().isEmpty()) {
          continue;
        }
        Map<String, ?> r = Values.resultsOf(results, t.id());
        rows.add(new Row(t.id(), t.group(), t.params(), new TreeMap<String, Object>(r), t.status()));
        params.addAll(t.params().keySet());
        keys.addAll(r.keySet());
      }
    }
    List<String> resultKeys = new ArrayList<>(keys);
    resultKeys.removeIf(k -> params.contains(k) && !Objects.equals(objective == null ? null : objective.key(), k)
        && rows.stream().allMatch(r -> Formats.value(r.results().get(k)).equals(r.params().getOrDefault(k, ""))));
    if (objective != null) {
      resultKeys.remove(objective.key());
      resultKeys.add(0, objective.key());
      rows.sort(ranking(objective));
    }
    return new SweepTable(objective, List.copyOf(params), resultKeys, rows);
  }

  /** Whether the run had no matrix tasks. */
  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The section title: {@code Sweep: best val_acc first}, or {@code Sweep} without an objective. */
  public String title() {
    return objective == null ? "Sweep" : "Sweep: best " + objective.key() + " first";
  }

  /** The best row, when an objective is given and some row has a value for it. */
  public Optional<Row> best() {
    if (objective == null || rows.isEmpty() || rows.get(0).value(objective.key()).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(rows.get(0));
  }

  /** Whether the rows come from more than one group, so a group column is worth showing. */
  public boolean spansGroups() {
    return rows.stream().map(Row::group).distinct().count() > 1;
  }

  private static Comparator<Row> ranking(Objective o) {
    // Rank classes: numbers, then other values, then missing; only numbers follow the goal's direction.
    return (a, b) -> {
      Object x = a.results().get(o.key());
      Object y = b.results().get(o.key());
      int cx = rankClass(x);
      int cy = rankClass(y);
      if (cx != cy) {
        return Integer.compare(cx, cy);
      }
      if (cx == 0) {
        BigDecimal nx = Values.number(x);
        BigDecimal ny = Values.number(y);
        return o.goal() == Objective.Goal.MAX ? ny.compareTo(nx) : nx.compareTo(ny);
      }
      return cx == 1 ? Formats.value(x).compareTo(Formats.value(y)) : 0;
    };
  }

  private static int rankClass(Object v) {
    if (v == null) {
      return 2;
    }
    return Values.number(v) != null ? 0 : 1;
  }
}
