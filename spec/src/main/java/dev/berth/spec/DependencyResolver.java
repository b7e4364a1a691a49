package dev.berth.spec;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.DependencyCycles;
import dev.berth.core.model.EdgeTasks;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskPattern;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.model.TaskValues;
import dev.berth.core.settings.DependencyPatterns;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Suggestions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Collects each task's {@code after} and {@code follow} while its groups are built, then, once every
 * task they may name is known, resolves ids, globs and {@code group:NAME} into task ids. A glob or
 * group never includes the task itself; an id that names no task is an error that suggests the
 * nearest id. The spec reader and the Java builders both resolve through here.
 *
 * <p>Problems are {@link InvalidValue}s of the task, placed at the key and the pattern, e.g.
 * {@code after[1]}; the caller knows where the key was written.
 */
public final class DependencyResolver {

  private final Map<String, List<String>> earlier;
  private final String scope;
  private final Map<String, DependencyPatterns> after = new HashMap<>();
  private final Map<String, DependencyPatterns> follow = new HashMap<>();

  /** A resolver for a whole run, where nothing came before. */
  public DependencyResolver() {
    this(Map.of(), "in this run");
  }

  /**
   * A resolver that also knows tasks submitted earlier.
   *
   * @param earlier the ids of earlier tasks by group, in submission order; dependencies may name them
   * @param scope where a named task is looked for, for errors, e.g. {@code in this run} or {@code submitted so far}
   */
  public DependencyResolver(Map<String, List<String>> earlier, String scope) {
    this.earlier = new LinkedHashMap<>(earlier);
    this.scope = scope;
  }

  /** Records the dependencies among a task's effective values, with their placeholders filled. */
  public void record(String taskId, TaskValues values) {
    values.get(TaskKeys.AFTER).ifPresent(d -> after.put(taskId, d));
    values.get(TaskKeys.FOLLOW).ifPresent(d -> follow.put(taskId, d));
  }

  /**
   * The groups with every recorded dependency resolved onto their tasks, and the graph checked:
   * a dependency on a task of a later group (when groups run one after another) and a cycle are
   * problems of the {@code after} or {@code follow} that makes them.
   *
   * @throws InvalidValue naming the task, the key and the rule
   */
  public List<GroupSpec> resolve(List<GroupSpec> groups, boolean groupsInParallel) {
    List<GroupSpec> resolved = resolveRefs(groups);
    check(resolved, groupsInParallel);
    return resolved;
  }

  private void check(List<GroupSpec> groups, boolean groupsInParallel) {
    if (GroupSpec.noDependencies(groups)) {
      return; // nothing to check: a sweep need not put every task into two maps
    }
    Map<TaskId, Integer> groupOf = new HashMap<>();
    for (int g = 0; g < groups.size(); g++) {
      for (TaskSpec t : groups.get(g).tasks()) {
        groupOf.put(t.id(), g);
      }
    }
    // A list that many edges share (a glob's matches) is looked at once: the checks cost the tasks
    // plus the lists, not the tasks times their parents.
    Map<EdgeTasks, Integer> latestGroup = new IdentityHashMap<>(); // looked up, never walked
    Map<TaskId, List<EdgeTasks>> edges = new LinkedHashMap<>();
    for (int g = 0; g < groups.size(); g++) {
      for (TaskSpec t : groups.get(g).tasks()) {
        List<EdgeTasks> lists = new ArrayList<>(2);
        t.after().ifPresent(d -> lists.add(d.members()));
        t.follow().ifPresent(d -> lists.add(d.members()));
        if (lists.isEmpty()) {
          continue;
        }
        edges.put(t.id(), lists);
        if (groupsInParallel) {
          continue;
        }
        for (EdgeTasks list : lists) {
          int latest = latestGroup.computeIfAbsent(list.whole(),
              w -> w.stream().mapToInt(p -> groupOf.getOrDefault(p, -1)).max().orElse(-1));
          if (latest > g) {
            checkOrder(t, g, groups, groupOf);
          }
        }
      }
    }
    Optional<List<TaskId>> cycle = DependencyCycles.findThroughLists(edges);
    if (cycle.isPresent()) {
      List<TaskId> c = cycle.get();
      throw new InvalidValue(c.get(0).value(), keyOf(c.get(0), c.get(1)), "dependency cycle: "
          + String.join(" -> ", c.stream().map(TaskId::value).toList()));
    }
  }

  /** Throws for the first task {@code t} depends on in a group after {@code g}, its own, if any. */
  private void checkOrder(TaskSpec t, int g, List<GroupSpec> groups, Map<TaskId, Integer> groupOf) {
    for (TaskId p : t.dependsOn()) {
      Integer pg = groupOf.get(p);
      if (pg != null && pg > g) {
        throw new InvalidValue(t.id().value(), keyOf(t.id(), p), "task " + t.id() + " (group "
            + groups.get(g).name() + ") depends on " + p + " in the later group " + groups.get(pg).name()
            + "; groups run one after another, so set groups-in-parallel: true or move " + p + " to an earlier group");
      }
    }
  }

  /** Which key makes {@code task} depend on {@code parent}: its after, else its follow. */
  private String keyOf(TaskId task, TaskId parent) {
    DependencyPatterns a = after.get(task.value());
    DependencyPatterns f = follow.get(task.value());
    if (a != null && (f == null || a.patterns().stream().anyMatch(p -> mayName(p, parent)))) {
      return TaskKeys.AFTER.key();
    }
    return f != null ? TaskKeys.FOLLOW.key() : TaskKeys.AFTER.key();
  }

  private static boolean mayName(String pattern, TaskId parent) {
    return pattern.startsWith("group:") || TaskPattern.of(pattern).matches(parent.value());
  }

  private List<GroupSpec> resolveRefs(List<GroupSpec> groups) {
    if (after.isEmpty() && follow.isEmpty()) {
      return groups;
    }
    Names names = new Names(earlier, groups);
    List<GroupSpec> resolved = new ArrayList<>();
    for (GroupSpec g : groups) {
      List<TaskSpec> tasks = new ArrayList<>();
      for (TaskSpec t : g.tasks()) {
        String id = t.id().value();
        DependencyPatterns a = after.get(id);
        DependencyPatterns f = follow.get(id);
        if (a == null && f == null) {
          tasks.add(t);
          continue;
        }
        TaskSpec.Builder b = t.toBuilder();
        if (a != null) {
          b.after(dependency(id, TaskKeys.AFTER.key(), a, names));
        }
        if (f != null) {
          b.follow(dependency(id, TaskKeys.FOLLOW.key(), f, names));
        }
        tasks.add(b.build());
      }
      resolved.add(new GroupSpec(g.name(), tasks));
    }
    return resolved;
  }

  /**
   * The tasks known by id and by group, and what each pattern and each list of patterns resolved to:
   * the tasks of a matrix that all write {@code after: ["m-*"]} resolve it once and share the list.
   */
  private static final class Names {

    final Map<String, List<String>> idsByGroup = new LinkedHashMap<>();
    final List<String> allIds = new ArrayList<>();
    final Set<String> known = new HashSet<>();
    final Map<String, List<String>> byPattern = new HashMap<>();
    final Map<List<String>, EdgeTasks> byPatterns = new HashMap<>();

    Names(Map<String, List<String>> earlier, List<GroupSpec> groups) {
      idsByGroup.putAll(earlier);
      for (GroupSpec g : groups) {
        idsByGroup.put(g.name(), g.tasks().stream().map(t -> t.id().value()).toList());
      }
      idsByGroup.values().forEach(allIds::addAll);
      known.addAll(allIds);
    }
  }

  private Dependency dependency(String self, String key, DependencyPatterns p, Names names) {
    for (int i = 0; i < p.patterns().size(); i++) {
      try {
        check(self, p.patterns().get(i), names);
      } catch (InvalidValue e) {
        throw new InvalidValue(self, InvalidValue.join(key, p.where().get(i)), e.rule());
      }
    }
    EdgeTasks all = names.byPatterns.computeIfAbsent(p.patterns(), patterns -> {
      Set<TaskId> ids = new LinkedHashSet<>();
      patterns.forEach(pattern -> names.byPattern.get(pattern).forEach(id -> ids.add(TaskId.of(id))));
      return EdgeTasks.of(ids);
    });
    EdgeTasks ids = all.without(TaskId.of(self));
    if (ids.isEmpty()) {
      throw new InvalidValue(self, key, "names no task other than " + self + " itself");
    }
    return new Dependency(ids, p.all(), p.success(), p.failure());
  }

  /**
   * Checks that {@code pattern} names a task other than {@code self}, once what it matches, self
   * included, is known: a group that exists, a glob that matches another task, an id of another
   * task.
   */
  private void check(String self, String pattern, Names names) {
    if (pattern.startsWith("group:")) {
      String group = pattern.substring("group:".length());
      if (!names.idsByGroup.containsKey(group)) {
        throw new InvalidValue("'" + pattern + "' names no group;"
            + Suggestions.nearest(group, names.idsByGroup.keySet()).map(s -> " did you mean 'group:" + s + "'?").orElse("")
            + " groups are " + String.join(", ", names.idsByGroup.keySet()));
      }
      names.byPattern.computeIfAbsent(pattern, k -> names.idsByGroup.get(group));
      return;
    }
    if (TaskPattern.isGlob(pattern)) {
      List<String> found = names.byPattern.computeIfAbsent(pattern,
          k -> names.allIds.stream().filter(TaskPattern.of(pattern)::matches).toList());
      if (found.isEmpty() || found.size() == 1 && found.get(0).equals(self)) {
        throw new InvalidValue("'" + pattern + "' matches no task");
      }
      return;
    }
    if (pattern.equals(self)) {
      throw new InvalidValue("task " + self + " depends on itself");
    }
    if (!names.known.contains(pattern)) {
      throw new InvalidValue("'" + pattern + "' names no task " + scope + ";"
          + Suggestions.nearest(pattern, names.allIds).map(s -> " did you mean '" + s + "'?").orElse("")
          + " use a task id, a glob such as \"train-*\" or group:NAME");
    }
    names.byPattern.computeIfAbsent(pattern, List::of);
  }
}
