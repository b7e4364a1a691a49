package dev.berth.core.model;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A whole run: its name, where its files go, the scheduler configuration and the groups in order.
 *
 * @param name run name
 * @param workdir the run's folder as given (relative to the directory Berth runs in, or absolute)
 * @param config scheduler configuration with every default applied
 * @param groups groups in the order they run
 * @param groupsInParallel whether tasks of all groups may mix, ordered only by their dependencies
 * @param gpus which GPUs to use: {@code auto}, {@code none}, indices such as {@code 0,2}, or
 *     simulated devices such as {@code sim:2x80GiB} (the command line may override it)
 * @param reporting the sweep objective
 * @param adapters the settings of the adapters around the core (mail, webhook, Slurm), which the core
 *     carries unopened
 */
public record RunSpec(
    String name, String workdir, SchedulerConfig config, List<GroupSpec> groups, boolean groupsInParallel,
    String gpus, Reporting reporting, AdapterSettings adapters) {

  /** Validates the name, that task ids are unique across the run, and the dependencies. */
  public RunSpec {
    Names.check("run", name);
    Objects.requireNonNull(workdir, "workdir");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(gpus, "gpus");
    Objects.requireNonNull(reporting, "reporting");
    Objects.requireNonNull(adapters, "adapters");
    if (!(groups instanceof CheckedGroups checked && checked.inParallel == groupsInParallel)) {
      groups = checked(groups, groupsInParallel); // not a copy made by one of the with... methods
    }
  }

  /** The groups, checked: every task id used once in the run, every dependency valid. */
  private static CheckedGroups checked(List<GroupSpec> given, boolean groupsInParallel) {
    List<GroupSpec> groups = List.copyOf(given);
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
    checkDependencies(groups, groupsInParallel);
    return new CheckedGroups(groups, groupsInParallel);
  }

  /** A run whose groups run one after another. */
  public RunSpec(String name, String workdir, SchedulerConfig config, List<GroupSpec> groups) {
    this(name, workdir, config, groups, false, "auto", Reporting.NONE, AdapterSettings.NONE);
  }

  /** A run that uses whatever GPUs are found. */
  public RunSpec(String name, String workdir, SchedulerConfig config, List<GroupSpec> groups, boolean groupsInParallel) {
    this(name, workdir, config, groups, groupsInParallel, "auto", Reporting.NONE, AdapterSettings.NONE);
  }

  /** A run whose adapters keep their defaults. */
  public RunSpec(String name, String workdir, SchedulerConfig config, List<GroupSpec> groups, boolean groupsInParallel,
      String gpus, Reporting reporting) {
    this(name, workdir, config, groups, groupsInParallel, gpus, reporting, AdapterSettings.NONE);
  }

  /** The same run with another configuration. */
  public RunSpec withConfig(SchedulerConfig other) {
    return new RunSpec(name, workdir, other, groups, groupsInParallel, gpus, reporting, adapters);
  }

  /** The same run with other adapter settings. */
  public RunSpec withAdapters(AdapterSettings other) {
    return new RunSpec(name, workdir, config, groups, groupsInParallel, gpus, reporting, other);
  }

  /** The same run in another folder (relative to the directory Berth runs in, or absolute). */
  public RunSpec withWorkdir(String folder) {
    return new RunSpec(name, folder, config, groups, groupsInParallel, gpus, reporting, adapters);
  }

  /** The same run with another GPU selection. */
  public RunSpec withGpus(String selection) {
    return new RunSpec(name, workdir, config, groups, groupsInParallel, selection, reporting, adapters);
  }

  private static void checkDependencies(List<GroupSpec> groups, boolean groupsInParallel) {
    // A sweep without edges (and every copy the with... methods make of it) is checked in one pass.
    if (GroupSpec.noDependencies(groups)) {
      return;
    }
    Map<TaskId, Integer> groupIndex = new HashMap<>();
    for (int i = 0; i < groups.size(); i++) {
      for (TaskSpec t : groups.get(i).tasks()) {
        groupIndex.put(t.id(), i);
      }
    }
    // What is learned of a list its edges share (a glob's matches) is learned once: the checks cost
    // the tasks plus the lists, not the tasks times their parents.
    Map<EdgeTasks, Integer> latestGroup = new IdentityHashMap<>(); // looked up, never walked
    Map<TaskId, List<EdgeTasks>> edges = new LinkedHashMap<>();
    for (int i = 0; i < groups.size(); i++) {
      for (TaskSpec t : groups.get(i).tasks()) {
        List<EdgeTasks> lists = new ArrayList<>(2);
        t.after().ifPresent(d -> lists.add(d.members()));
        t.follow().ifPresent(d -> lists.add(d.members()));
        if (lists.isEmpty()) {
          continue; // no edge starts here, so no cycle passes through it
        }
        boolean plain = lists.size() == 1 || lists.get(0).whole() == lists.get(1).whole();
        for (EdgeTasks list : lists) {
          int latest = latestGroup.computeIfAbsent(list.whole(), w -> latest(w, groupIndex));
          plain &= latest >= 0 && (groupsInParallel || latest <= i) && !list.contains(t.id());
        }
        if (!plain) {
          checkParents(t, i, groups, groupIndex, groupsInParallel); // says what is wrong, if anything is
        }
        edges.put(t.id(), lists);
      }
    }
    DependencyCycles.findThroughLists(edges).ifPresent(cycle -> {
      throw new IllegalArgumentException("dependency cycle: "
          + String.join(" -> ", cycle.stream().map(TaskId::value).toList()));
    });
  }

  /**
   * The latest group of a task in {@code list}, or -1 when it names a task the run lacks or two
   * tasks that would share one {@code BERTH_DEP_<ID>_DIR} variable.
   */
  private static int latest(EdgeTasks list, Map<TaskId, Integer> groupIndex) {
    int latest = 0;
    Map<String, TaskId> envNames = new HashMap<>();
    for (TaskId p : list) {
      Integer g = groupIndex.get(p);
      TaskId other = envNames.put(p.envName(), p);
      if (g == null || other != null && !other.equals(p)) {
        return -1;
      }
      latest = Math.max(latest, g);
    }
    return latest;
  }

  /** Checks each parent of {@code t}, of group {@code i}, in order, and throws for the first that breaks a rule. */
  private static void checkParents(TaskSpec t, int i, List<GroupSpec> groups, Map<TaskId, Integer> groupIndex,
      boolean groupsInParallel) {
    for (TaskId p : t.dependsOn()) {
      Integer pg = groupIndex.get(p);
      if (pg == null) {
        throw new IllegalArgumentException("task " + t.id() + " depends on unknown task '" + p + "'");
      }
      if (p.equals(t.id())) {
        throw new IllegalArgumentException("task " + t.id() + " depends on itself");
      }
      if (!groupsInParallel && pg > i) {
        throw new IllegalArgumentException(
            "task " + t.id() + " (group " + groups.get(i).name() + ") depends on " + p + " in the later group "
                + groups.get(pg).name() + "; groups run one after another, so set groups-in-parallel: true"
                + " or move " + p + " to an earlier group");
      }
    }
    Map<String, TaskId> envNames = new HashMap<>();
    for (TaskId p : t.dependsOn()) {
      TaskId other = envNames.put(p.envName(), p);
      if (other != null) {
        throw new IllegalArgumentException("task " + t.id() + " depends on " + other + " and " + p
            + ", which would both be BERTH_DEP_" + p.envName() + "_DIR; rename one of them");
      }
    }
  }

  /** All tasks of all groups, in submission order. */
  public List<TaskSpec> tasks() {
    return groups.stream().flatMap(g -> g.tasks().stream()).toList();
  }

  /**
   * Groups this record checked (ids unique across the run, dependencies valid when groups run in
   * parallel or not, as {@code inParallel} says): a copy that keeps them is not checked again, as a
   * run of 100,000 tasks is copied several times while its settings are read. Only this record makes
   * one, so nothing unchecked passes for checked.
   */
  private static final class CheckedGroups extends AbstractList<GroupSpec> implements RandomAccess {

    private final List<GroupSpec> groups;
    private final boolean inParallel;

    CheckedGroups(List<GroupSpec> groups, boolean inParallel) {
      this.groups = groups;
      this.inParallel = inParallel;
    }

    @Override
    public GroupSpec get(int index) {
      return groups.get(index);
    }

    @Override
    public int size() {
      return groups.size();
    }
  }
}
