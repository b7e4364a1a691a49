package dev.berth.client;

import dev.berth.core.deps.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskPattern;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns builders into the core model as the spec loader does: the group's defaults under each
 * task's own values, the configuration's fallbacks, and dependencies resolved from ids, globs and
 * {@code group:NAME} against every task known (earlier submissions plus the groups at hand).
 */
final class Resolver {

  /** A group waiting to be resolved: its name, its defaults and its tasks. */
  record Pending(String name, SettingValues defaults, List<TaskBuilder> tasks) {

    /** A copy of {@code task} alone in {@code group}, which has no defaults of its own. */
    static Pending alone(String group, TaskBuilder task) {
      return new Pending(group, new SettingValues(), List.of(task.copy()));
    }
  }

  private Resolver() {}

  /**
   * Resolves {@code groups} in order.
   *
   * @param known task ids by group of what was submitted before, in submission order; not changed
   * @param scope what the tasks are unique in, for errors: {@code session}, {@code run} or {@code group}
   * @throws IllegalArgumentException naming the group or task and the rule
   */
  static List<GroupSpec> resolve(List<Pending> groups, Map<String, List<String>> known, SchedulerConfig config, String scope) {
    Map<String, List<String>> idsByGroup = new LinkedHashMap<>(known);
    Map<String, String> ownerOf = new LinkedHashMap<>();
    known.forEach((g, ids) -> ids.forEach(id -> ownerOf.put(id, g)));
    for (Pending g : groups) {
      GroupBuilder.checkName(g.name());
      if (g.tasks().isEmpty()) {
        throw new IllegalArgumentException("group " + g.name() + " has no tasks; add at least one");
      }
      if (idsByGroup.containsKey(g.name())) {
        throw new IllegalArgumentException("group name '" + g.name() + "' is already used in this " + scope
            + "; group names must be unique");
      }
      List<String> ids = new ArrayList<>();
      for (TaskBuilder t : g.tasks()) {
        String previous = ownerOf.putIfAbsent(t.id(), g.name());
        if (previous != null) {
          throw new IllegalArgumentException("task id '" + t.id() + "' is used in group " + previous
              + (previous.equals(g.name()) ? " twice" : " and in group " + g.name())
              + "; task ids must be unique within a " + scope);
        }
        ids.add(t.id());
      }
      idsByGroup.put(g.name(), ids);
    }
    List<String> allIds = new ArrayList<>(ownerOf.keySet());
    List<GroupSpec> out = new ArrayList<>();
    for (Pending g : groups) {
      List<TaskSpec> specs = new ArrayList<>();
      for (TaskBuilder t : g.tasks()) {
        specs.add(spec(g, t, config, allIds, idsByGroup, true));
      }
      out.add(new GroupSpec(g.name(), specs));
    }
    return out;
  }

  /** One task alone in {@code group}; dependencies are taken as the ids written. */
  static GroupSpec standalone(String group, TaskBuilder task, SchedulerConfig config) {
    GroupBuilder.checkName(group);
    Pending p = Pending.alone(group, task);
    return new GroupSpec(group, List.of(spec(p, task, config, List.of(), Map.of(), false)));
  }

  private static TaskSpec spec(Pending g, TaskBuilder t, SchedulerConfig config, List<String> allIds,
      Map<String, List<String>> idsByGroup, boolean checkIds) {
    SettingValues effective = g.defaults().overriddenBy(t.values);
    try {
      TaskSpec.Builder b = TaskSpec.builder(t.id(), g.name()).command(t.command()).params(t.params());
      b.twoStage(t.java()); // a Java task speaks the protocol unless its own or its group's two-stage says no
      effective.applyTo(b, config);
      if (effective.after != null) {
        b.after(dependency(t.id(), effective.after, allIds, idsByGroup, checkIds));
      }
      if (effective.follow != null) {
        b.follow(dependency(t.id(), effective.follow, allIds, idsByGroup, checkIds));
      }
      return b.build();
    } catch (IllegalArgumentException e) {
      String message = e.getMessage();
      throw new IllegalArgumentException(message.startsWith("task " + t.id()) ? message : "task " + t.id() + ": " + message, e);
    }
  }

  private static Dependency dependency(String self, DependsOn d, List<String> allIds,
      Map<String, List<String>> idsByGroup, boolean checkIds) {
    Set<TaskId> ids = new LinkedHashSet<>();
    for (String pattern : d.tasks()) {
      ids.addAll(matches(self, pattern, allIds, idsByGroup, checkIds));
    }
    if (ids.isEmpty()) {
      throw new IllegalArgumentException("dependency " + d.tasks() + " names no task other than " + self + " itself");
    }
    return new Dependency(List.copyOf(ids), d.all(), d.success(), d.failure());
  }

  private static List<TaskId> matches(String self, String pattern, List<String> allIds,
      Map<String, List<String>> idsByGroup, boolean checkIds) {
    if (!checkIds) {
      if (pattern.startsWith("group:") || TaskPattern.isGlob(pattern)) {
        throw new IllegalArgumentException("'" + pattern + "' needs the other tasks to be resolved; submit the task to a"
            + " session or add it to a RunBuilder instead of calling toSpec");
      }
      if (pattern.equals(self)) {
        throw new IllegalArgumentException("task " + self + " depends on itself");
      }
      return List.of(TaskId.of(pattern));
    }
    if (pattern.startsWith("group:")) {
      String group = pattern.substring("group:".length());
      List<String> members = idsByGroup.get(group);
      if (members == null) {
        throw new IllegalArgumentException("'" + pattern + "' names no group; groups are " + String.join(", ", idsByGroup.keySet()));
      }
      return members.stream().filter(id -> !id.equals(self)).map(TaskId::of).toList();
    }
    if (TaskPattern.isGlob(pattern)) {
      TaskPattern glob = TaskPattern.of(pattern);
      List<TaskId> found = allIds.stream().filter(id -> !id.equals(self) && glob.matches(id)).map(TaskId::of).toList();
      if (found.isEmpty()) {
        throw new IllegalArgumentException("'" + pattern + "' matches no task");
      }
      return found;
    }
    if (pattern.equals(self)) {
      throw new IllegalArgumentException("task " + self + " depends on itself");
    }
    if (!allIds.contains(pattern)) {
      throw new IllegalArgumentException("'" + pattern + "' names no task submitted so far; use a task id, a glob such"
          + " as \"train-*\" or group:NAME");
    }
    return List.of(TaskId.of(pattern));
  }
}
