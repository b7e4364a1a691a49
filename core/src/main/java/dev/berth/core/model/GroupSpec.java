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
}
