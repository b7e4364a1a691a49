package dev.berth.spec;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.TaskKey;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskValues;
import dev.berth.core.settings.InvalidValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's dependencies while the spec is read: the {@link DependencyResolver}, and where each
 * task's {@code after} and {@code follow} were written (on the task, or on its group), so that a
 * problem found once every task is known is still reported where the user wrote it.
 */
final class SpecDependencies {

  private final DependencyResolver resolver = new DependencyResolver();
  private final Map<String, Field> written = new HashMap<>();

  /**
   * Records a task's effective dependencies.
   *
   * @param own the values the task entry sets itself
   * @param entry where the task entry is
   * @param group where its group is
   */
  void record(String taskId, TaskValues effective, TaskValues own, Field entry, Field group) {
    resolver.record(taskId, effective);
    for (TaskKey<?> key : List.of(TaskKeys.AFTER, TaskKeys.FOLLOW)) {
      if (effective.has(key)) {
        written.put(taskId + "\n" + key.key(), own.has(key) ? entry : group);
      }
    }
  }

  /** The groups with every dependency resolved and checked; see {@link DependencyResolver#resolve}. */
  List<GroupSpec> resolve(List<GroupSpec> groups, boolean groupsInParallel) throws SpecException {
    try {
      return resolver.resolve(groups, groupsInParallel);
    } catch (InvalidValue e) {
      String key = e.path().split("[.\\[]", 2)[0];
      throw written.get(e.task() + "\n" + key).problem(e);
    }
  }
}
