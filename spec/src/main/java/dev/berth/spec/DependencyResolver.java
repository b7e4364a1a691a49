package dev.berth.spec;

import dev.berth.core.deps.Cycles;
import dev.berth.core.deps.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskPattern;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Collects each expanded task's {@code after} and {@code follow} while the spec is read, then,
 * once every task of the run is known, resolves ids, globs and {@code group:NAME} into task ids.
 * A glob or group never includes the task itself; an id that names no task is an error that
 * suggests the nearest id.
 */
final class DependencyResolver {

  private record Pending(DependencyRef ref, List<String> patterns) {}

  private final Map<String, Pending> after = new HashMap<>();
  private final Map<String, Pending> follow = new HashMap<>();

  /** Records the task's {@code after}, with its placeholders filled from {@code values}. */
  void after(String taskId, DependencyRef ref, Map<String, String> values) throws SpecException {
    after.put(taskId, new Pending(ref, fill(ref, values)));
  }

  /** Records the task's {@code follow}, with its placeholders filled from {@code values}. */
  void follow(String taskId, DependencyRef ref, Map<String, String> values) throws SpecException {
    follow.put(taskId, new Pending(ref, fill(ref, values)));
  }

  /** The groups with every recorded dependency resolved onto their tasks. */
  List<GroupSpec> resolve(List<GroupSpec> groups) throws SpecException {
    return resolve(groups, true);
  }

  /**
   * The groups with every recorded dependency resolved onto their tasks, and the graph checked
   * where the user wrote it: a dependency on a task of a later group (when groups run one after
   * another) and a cycle are reported at the {@code after} or {@code follow} that makes them.
   */
  List<GroupSpec> resolve(List<GroupSpec> groups, boolean groupsInParallel) throws SpecException {
    List<GroupSpec> resolved = resolveRefs(groups);
    check(resolved, groupsInParallel);
    return resolved;
  }

  private void check(List<GroupSpec> groups, boolean groupsInParallel) throws SpecException {
    Map<TaskId, Integer> groupOf = new HashMap<>();
    for (int g = 0; g < groups.size(); g++) {
      for (TaskSpec t : groups.get(g).tasks()) {
        groupOf.put(t.id(), g);
      }
    }
    Map<TaskId, List<TaskId>> parents = new LinkedHashMap<>();
    for (int g = 0; g < groups.size(); g++) {
      for (TaskSpec t : groups.get(g).tasks()) {
        parents.put(t.id(), t.dependsOn());
        for (TaskId p : t.dependsOn()) {
          int pg = groupOf.get(p);
          if (!groupsInParallel && pg > g) {
            throw fieldOf(t.id(), p).problem("task " + t.id() + " (group " + groups.get(g).name() + ") depends on "
                + p + " in the later group " + groups.get(pg).name() + "; groups run one after another, so set"
                + " groups-in-parallel: true or move " + p + " to an earlier group");
          }
        }
      }
    }
    Optional<List<TaskId>> cycle = Cycles.find(parents);
    if (cycle.isPresent()) {
      List<TaskId> c = cycle.get();
      throw fieldOf(c.get(0), c.get(1)).problem("dependency cycle: "
          + String.join(" -> ", c.stream().map(TaskId::value).toList()));
    }
  }

  /** Where the dependency of {@code task} on {@code parent} was written: its after, else its follow. */
  private Field fieldOf(TaskId task, TaskId parent) {
    Pending a = after.get(task.value());
    Pending f = follow.get(task.value());
    if (a != null && (f == null || a.patterns().stream().anyMatch(p -> mayName(p, parent)))) {
      return a.ref().field();
    }
    return f != null ? f.ref().field() : a.ref().field();
  }

  private static boolean mayName(String pattern, TaskId parent) {
    return pattern.startsWith("group:") || TaskPattern.of(pattern).matches(parent.value());
  }

  private List<GroupSpec> resolveRefs(List<GroupSpec> groups) throws SpecException {
    if (after.isEmpty() && follow.isEmpty()) {
      return groups;
    }
    Map<String, List<String>> idsByGroup = new LinkedHashMap<>();
    List<String> allIds = new ArrayList<>();
    for (GroupSpec g : groups) {
      List<String> ids = g.tasks().stream().map(t -> t.id().value()).toList();
      idsByGroup.put(g.name(), ids);
      allIds.addAll(ids);
    }
    List<GroupSpec> resolved = new ArrayList<>();
    for (GroupSpec g : groups) {
      List<TaskSpec> tasks = new ArrayList<>();
      for (TaskSpec t : g.tasks()) {
        String id = t.id().value();
        TaskSpec.Builder b = t.toBuilder();
        Pending a = after.get(id);
        if (a != null) {
          b.after(dependency(id, a, allIds, idsByGroup));
        }
        Pending f = follow.get(id);
        if (f != null) {
          b.follow(dependency(id, f, allIds, idsByGroup));
        }
        tasks.add(b.build());
      }
      resolved.add(new GroupSpec(g.name(), tasks));
    }
    return resolved;
  }

  private static List<String> fill(DependencyRef ref, Map<String, String> values) throws SpecException {
    List<String> filled = new ArrayList<>();
    for (Template t : ref.patterns()) {
      filled.add(t.fill(values));
    }
    return filled;
  }

  private static Dependency dependency(String self, Pending p, List<String> allIds,
      Map<String, List<String>> idsByGroup) throws SpecException {
    Set<TaskId> ids = new LinkedHashSet<>();
    for (int i = 0; i < p.patterns().size(); i++) {
      String pattern = p.patterns().get(i);
      Field field = p.ref().patterns().get(i).field();
      ids.addAll(matches(self, pattern, field, allIds, idsByGroup));
    }
    if (ids.isEmpty()) {
      throw p.ref().field().problem("names no task other than " + self + " itself");
    }
    return new Dependency(List.copyOf(ids), p.ref().all(), p.ref().success(), p.ref().failure());
  }

  private static List<TaskId> matches(String self, String pattern, Field field, List<String> allIds,
      Map<String, List<String>> idsByGroup) throws SpecException {
    if (pattern.startsWith("group:")) {
      String group = pattern.substring("group:".length());
      List<String> members = idsByGroup.get(group);
      if (members == null) {
        throw field.problem("'" + pattern + "' names no group;"
            + Suggestions.nearest(group, idsByGroup.keySet()).map(s -> " did you mean 'group:" + s + "'?").orElse("")
            + " groups are " + String.join(", ", idsByGroup.keySet()));
      }
      return members.stream().filter(id -> !id.equals(self)).map(TaskId::of).toList();
    }
    if (TaskPattern.isGlob(pattern)) {
      TaskPattern glob = TaskPattern.of(pattern);
      List<TaskId> found = allIds.stream()
          .filter(id -> !id.equals(self) && glob.matches(id)).map(TaskId::of).toList();
      if (found.isEmpty()) {
        throw field.problem("'" + pattern + "' matches no task");
      }
      return found;
    }
    if (pattern.equals(self)) {
      throw field.problem("task " + self + " depends on itself");
    }
    if (!allIds.contains(pattern)) {
      throw field.problem("'" + pattern + "' names no task in this run;"
          + Suggestions.nearest(pattern, allIds).map(s -> " did you mean '" + s + "'?").orElse("")
          + " use a task id, a glob such as \"train-*\" or group:NAME");
    }
    return List.of(TaskId.of(pattern));
  }
}
