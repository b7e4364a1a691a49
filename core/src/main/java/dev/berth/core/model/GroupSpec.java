package dev.berth.core.model;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A named set of tasks. Groups run one after another; the tasks inside one run in parallel.
 *
 * @param name group name, also the name of its folder under the run's workdir
 * @param tasks the group's tasks in submission order
 */
public record GroupSpec(String name, List<TaskSpec> tasks) {

  /** Validates the name and that every task names this group. */
  public GroupSpec {
    Names.check("group", name);
    tasks = List.copyOf(tasks);
    Set<TaskId> seen = new HashSet<>();
    for (TaskSpec t : tasks) {
      if (!t.group().equals(name)) {
        throw new IllegalArgumentException("task " + t.id() + " names group " + t.group() + ", not " + name);
      }
      if (!seen.add(t.id())) {
        throw new IllegalArgumentException("task id '" + t.id() + "' appears twice in group " + name);
      }
    }
  }

  /** Whether no task of {@code groups} has an {@code after} or a {@code follow}: no edge to check. */
  public static boolean noDependencies(List<GroupSpec> groups) {
    for (GroupSpec g : groups) {
      for (TaskSpec t : g.tasks()) {
        if (t.after().isPresent() || t.follow().isPresent()) {
          return false;
        }
      }
    }
    return true;
  }
}
