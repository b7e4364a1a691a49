package dev.berth.core.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A whole run: its name, where its files go, the scheduler configuration and the groups in order.
 *
 * @param name run name
 * @param workdir the run's folder as given (relative to the directory Berth runs in, or absolute)
 * @param config scheduler configuration with every default applied
 * @param groups groups in the order they run
 */
public record RunSpec(String name, String workdir, SchedulerConfig config, List<GroupSpec> groups) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  /** Validates the name and that task ids are unique across the run. */
  public RunSpec {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("run name '" + name + "' must match [A-Za-z0-9._-]+");
    }
    Objects.requireNonNull(workdir, "workdir");
    Objects.requireNonNull(config, "config");
    groups = List.copyOf(groups);
    Map<TaskId, String> owner = new HashMap<>();
    Map<String, Boolean> groupNames = new HashMap<>();
    for (GroupSpec g : groups) {
      if (groupNames.put(g.name(), Boolean.TRUE) != null) {
        throw new IllegalArgumentException("group name '" + g.name() + "' is used twice");
      }
      for (TaskSpec t : g.tasks()) {
        String previous = owner.put(t.id(), g.name());
        if (previous != null) {
          throw new IllegalArgumentException(
              "task id '" + t.id() + "' is used in groups " + previous + " and " + g.name()
                  + "; task ids must be unique within a run");
        }
      }
    }
  }

  /** All tasks of all groups, in submission order. */
  public List<TaskSpec> tasks() {
    return groups.stream().flatMap(g -> g.tasks().stream()).toList();
  }
}
