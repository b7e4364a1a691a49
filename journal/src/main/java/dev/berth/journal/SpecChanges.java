package dev.berth.journal;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.model.TaskSpec;
import dev.berth.journal.SpecDiff.Difference;
import dev.berth.journal.SpecDiff.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The differences of {@link SpecDiff} summarised for people: a headline that counts the tasks added,
 * removed and changed (naming the matrix values the added tasks bring, e.g. {@code 3 tasks added
 * (seed=4), 0 removed, 0 changed}), then one line per kind and group with at most {@value #SHOWN}
 * ids and "… and N more", and the run's own changes; so that adding one value to a 75-seed matrix
 * reads as one line of 75 tasks, not 75 lines.
 */
public final class SpecChanges {

  /** How many ids a line names before "… and N more". */
  static final int SHOWN = 3;

  private final List<Difference> differences;
  private final Set<String> added = new LinkedHashSet<>();
  private final Set<String> removed = new LinkedHashSet<>();
  private final Set<String> changed = new LinkedHashSet<>();
  private final String newValues;

  private SpecChanges(List<Difference> differences, RunSpec stored, RunSpec now) {
    this.differences = differences;
    for (Difference d : differences) {
      switch (d.kind()) {
        case TASK_ADDED -> added.add(d.subject());
        case TASK_REMOVED -> removed.add(d.subject());
        case TASK_MOVED, TASK_CHANGED -> changed.add(d.subject());
        default -> { }
      }
    }
    this.newValues = newValues(stored, now, added);
  }

  /** The changes from the spec a run started with to the one given now. */
  public static SpecChanges between(RunSpec stored, RunSpec now, List<SettingsTable<?, ?>> adapters) {
    return new SpecChanges(SpecDiff.differences(stored, now, adapters), stored, now);
  }

  /** Whether the specs are equal. */
  public boolean isEmpty() {
    return differences.isEmpty();
  }

  /**
   * Whether the spec only grew or shrank: tasks or groups were added or removed, or put in another
   * order, while every task that is in both and the run's own settings are as they were.
   */
  public boolean tasksOnly() {
    return differences.stream().allMatch(d -> switch (d.kind()) {
      case GROUP_ADDED, GROUP_REMOVED, ORDER, TASK_ADDED, TASK_REMOVED -> true;
      default -> false;
    });
  }

  /** How many tasks the new spec adds. */
  public int added() {
    return added.size();
  }

  /** How many tasks it removes. */
  public int removed() {
    return removed.size();
  }

  /** How many tasks in both specs changed (a setting, or their group). */
  public int changed() {
    return changed.size();
  }

  /**
   * One line: the counts of tasks added, removed and changed when tasks changed, e.g. {@code 3 tasks
   * added (seed=4), 0 removed, 0 changed}, with the number of other changes; else the run's own
   * changes, or their number when there are more than two.
   */
  public String headline() {
    List<String> others = others();
    if (!tasksChanged()) {
      return others.size() <= 2 ? String.join("; ", others) : others.size() + " changes to the run's settings";
    }
    String line = added.size() + (added.size() == 1 ? " task" : " tasks") + " added" + newValues + ", "
        + removed.size() + " removed, " + changed.size() + " changed";
    return others.isEmpty() ? line
        : line + "; " + others.size() + (others.size() == 1 ? " other change" : " other changes");
  }

  /**
   * The lines under the headline: per group the tasks added and removed, each change of tasks'
   * settings with the tasks it applies to, then the other changes (groups added and removed, orders,
   * the run's own settings). Empty when the headline says it all.
   */
  public List<String> details() {
    List<String> others = others();
    if (!tasksChanged()) {
      return others.size() <= 2 ? List.of() : others;
    }
    List<String> lines = new ArrayList<>();
    tasksPerGroup(Kind.TASK_ADDED, "added to ", lines);
    tasksPerGroup(Kind.TASK_REMOVED, "removed from ", lines);
    Map<String, List<Difference>> fields = new LinkedHashMap<>();
    for (Difference d : differences) {
      if (d.kind() == Kind.TASK_MOVED || d.kind() == Kind.TASK_CHANGED) {
        fields.computeIfAbsent(d.group() + " " + d.field(), k -> new ArrayList<>()).add(d);
      }
    }
    for (List<Difference> same : fields.values()) {
      Difference first = same.get(0);
      boolean alike = same.stream().allMatch(d -> d.detail().equals(first.detail()));
      List<String> ids = same.stream().map(Difference::subject).toList();
      lines.add(first.group() + ": " + (alike ? first.detail() : first.field() + " changed") + " in "
          + ids.size() + (ids.size() == 1 ? " task" : " tasks") + ": " + ids(ids));
    }
    lines.addAll(others);
    return lines;
  }

  private boolean tasksChanged() {
    return !added.isEmpty() || !removed.isEmpty() || !changed.isEmpty();
  }

  /** The changes that are not of one task, one line each; a changed order is named, not listed. */
  private List<String> others() {
    List<String> lines = new ArrayList<>();
    for (Difference d : differences) {
      switch (d.kind()) {
        case ORDER -> lines.add(d.group() == null ? "group order changed" : d.group() + ": task order changed");
        case GROUP_ADDED, GROUP_REMOVED, RUN -> lines.add(d.line());
        default -> { }
      }
    }
    return lines;
  }

  /** The headline, then the details indented by two spaces, one a line. */
  public String text() {
    StringBuilder text = new StringBuilder(headline());
    details().forEach(l -> text.append("\n  ").append(l));
    return text.toString();
  }

  private void tasksPerGroup(Kind kind, String label, List<String> lines) {
    Map<String, List<String>> perGroup = new LinkedHashMap<>();
    differences.stream().filter(d -> d.kind() == kind)
        .forEach(d -> perGroup.computeIfAbsent(d.group(), g -> new ArrayList<>()).add(d.subject()));
    perGroup.forEach((group, ids) -> lines.add(label + group + " (" + ids.size() + "): " + ids(ids)));
  }

  /** At most {@link #SHOWN} ids, then how many more. */
  static String ids(List<String> ids) {
    String shown = String.join(", ", ids.subList(0, Math.min(SHOWN, ids.size())));
    return ids.size() > SHOWN ? shown + " … and " + (ids.size() - SHOWN) + " more" : shown;
  }

  /**
   * The matrix values the added tasks bring, as {@code " (seed=4)"}: per parameter, the values of
   * added tasks that no task of the stored spec had; empty when there are none.
   */
  private static String newValues(RunSpec stored, RunSpec now, Set<String> added) {
    Map<String, Set<String>> known = new TreeMap<>();
    for (TaskSpec t : stored.tasks()) {
      t.params().forEach((k, v) -> known.computeIfAbsent(k, x -> new TreeSet<>()).add(v));
    }
    Map<String, Set<String>> fresh = new TreeMap<>();
    for (TaskSpec t : now.tasks()) {
      if (added.contains(t.id().value())) {
        t.params().forEach((k, v) -> {
          if (!known.getOrDefault(k, Set.of()).contains(v)) {
            fresh.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(v);
          }
        });
      }
    }
    if (fresh.isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    fresh.forEach((k, values) -> parts.add(k + "=" + ids(List.copyOf(values))));
    return " (" + String.join("; ", parts) + ")";
  }
}
