package dev.berth.client;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskPattern;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.model.TaskValues;
import dev.berth.core.settings.DependencyPatterns;
import dev.berth.core.settings.InvalidValue;
import dev.berth.spec.DependencyResolver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A group built in Java, waiting to become the core model: its name, its defaults and a snapshot
 * of its tasks. Turning drafts into groups goes the spec's way: each task's values over its group's
 * ({@link TaskValues}), then the dependencies resolved by the spec's {@link DependencyResolver}
 * against every task known (earlier submissions plus the drafts at hand).
 *
 * @param name the group's name
 * @param defaults the settings the group gives its tasks
 * @param tasks copies of its tasks
 */
record GroupDraft(String name, TaskValues defaults, List<TaskBuilder> tasks) {

  /** A copy of {@code task} alone in {@code group}, which has no defaults of its own. */
  static GroupDraft alone(String group, TaskBuilder task) {
    return new GroupDraft(group, TaskValues.NONE, List.of(task.copy()));
  }

  /**
   * Turns {@code drafts} into groups, in order.
   *
   * @param known task ids by group of what was submitted before, in submission order; not changed
   * @param scope what the tasks are unique in, for errors: {@code session}, {@code run} or {@code group}
   * @param groupsInParallel whether a task may depend on a task of a later draft
   * @throws IllegalArgumentException naming the group or task and the rule
   */
  static List<GroupSpec> resolve(List<GroupDraft> drafts, Map<String, List<String>> known, SchedulerConfig config,
      String scope, boolean groupsInParallel) {
    checkNames(drafts, known, scope);
    DependencyResolver dependencies = new DependencyResolver(known,
        scope.equals("session") ? "submitted so far" : "in this " + scope);
    List<GroupSpec> groups = new ArrayList<>();
    for (GroupDraft g : drafts) {
      List<TaskSpec> specs = new ArrayList<>();
      for (TaskBuilder t : g.tasks()) {
        specs.add(g.spec(t, config, dependencies));
      }
      groups.add(new GroupSpec(g.name(), specs));
    }
    try {
      return dependencies.resolve(groups, groupsInParallel);
    } catch (InvalidValue e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The draft's one task, its dependencies taken as the task ids written: no other task is known
   * to resolve a glob or {@code group:NAME} against.
   */
  GroupSpec standalone(SchedulerConfig config) {
    TaskBuilder task = tasks.get(0);
    List<String> named = new ArrayList<>();
    for (var key : List.of(TaskKeys.AFTER, TaskKeys.FOLLOW)) {
      for (String pattern : task.values.get(key).map(DependencyPatterns::patterns).orElse(List.of())) {
        if (pattern.startsWith("group:") || TaskPattern.isGlob(pattern)) {
          throw new IllegalArgumentException("'" + pattern + "' needs the other tasks to be resolved; submit the task"
              + " to a session or add it to a RunBuilder instead of calling toSpec");
        }
        named.add(pattern);
      }
    }
    named.removeIf(task.id()::equals); // so that depending on itself is refused as such
    return resolve(List.of(this), Map.of("", named), config, "group", true).get(0);
  }

  private TaskSpec spec(TaskBuilder t, SchedulerConfig config, DependencyResolver dependencies) {
    TaskValues effective = defaults.overriddenBy(t.values);
    try {
      TaskSpec.Builder b = TaskSpec.builder(t.id(), name).command(t.command()).params(t.params())
          .template(t.template()).set(TaskKeys.POOL, t.pool());
      b.twoStage(t.java()); // a Java task speaks the protocol unless its own or its group's two-stage says no
      effective.applyTo(b, config);
      dependencies.record(t.id(), effective);
      return b.build();
    } catch (IllegalArgumentException e) {
      String message = e.getMessage();
      throw new IllegalArgumentException(message.startsWith("task " + t.id()) ? message : "task " + t.id() + ": " + message, e);
    }
  }

  private static void checkNames(List<GroupDraft> drafts, Map<String, List<String>> known, String scope) {
    Map<String, String> ownerOf = new LinkedHashMap<>();
    known.forEach((g, ids) -> ids.forEach(id -> ownerOf.put(id, g)));
    List<String> names = new ArrayList<>(known.keySet());
    for (GroupDraft g : drafts) {
      GroupBuilder.checkName(g.name());
      if (g.tasks().isEmpty()) {
        throw new IllegalArgumentException("group " + g.name() + " has no tasks; add at least one");
      }
      if (names.contains(g.name())) {
        throw new IllegalArgumentException("group name '" + g.name() + "' is already used in this " + scope
            + "; group names must be unique");
      }
      names.add(g.name());
      for (TaskBuilder t : g.tasks()) {
        String previous = ownerOf.putIfAbsent(t.id(), g.name());
        if (previous != null) {
          throw new IllegalArgumentException("task id '" + t.id() + "' is used in group " + previous
              + (previous.equals(g.name()) ? " twice" : " and in group " + g.name())
              + "; task ids must be unique within a " + scope);
        }
      }
    }
  }
}
