package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskKey;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.model.TaskValues;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One entry under {@code groups}, parsed.
 *
 * @param field where the entry is, e.g. {@code groups[1]}
 * @param name the group's name
 * @param defaults settings the group gives each of its tasks
 * @param tasks the task entries, not yet expanded
 */
record GroupEntry(Field field, String name, TaskValues defaults, List<TaskEntry> tasks) {

  private static final List<String> OWN_KEYS = List.of("name", "tasks");

  /** Parses the entry at {@code field}. */
  static GroupEntry parse(YamlNode node, Field field, Pools pools) throws SpecException {
    YamlNode.Mapping map = Keys.mapping(node, field, "group keys such as name and tasks");
    List<String> valid = Stream.concat(OWN_KEYS.stream(), TaskKeys.groupKeys().stream().map(TaskKey::key)).toList();
    Map<String, String> taskOnly = new HashMap<>();
    for (TaskKey<?> key : TaskKeys.ALL) {
      if (!key.groupMaySet()) {
        taskOnly.put(key.key(), "is a task key; set it on each task under 'tasks'");
      }
    }
    Keys.requireKnown(map, field, valid, taskOnly);
    String name = field.key("name").read(RunSpecReader.NAME,
        Keys.required(map, "name", field, "is required, e.g. name: train"));
    TaskValues defaults = TaskEntry.settings(map, field);
    Field tasksField = field.key("tasks");
    YamlNode tasksNode = Keys.required(map, "tasks", field, "is required: list the group's tasks");
    if (!(tasksNode instanceof YamlNode.Sequence list)) {
      throw tasksField.problem("must be a list of tasks but was " + tasksNode.describe());
    }
    if (list.items().isEmpty()) {
      throw tasksField.problem("must list at least one task");
    }
    List<TaskEntry> tasks = new ArrayList<>();
    for (int i = 0; i < list.items().size(); i++) {
      tasks.add(TaskEntry.parse(list.items().get(i), tasksField.index(i), pools));
    }
    return new GroupEntry(field, name, defaults, List.copyOf(tasks));
  }

  /**
   * Expands every task entry, filling the {@link BuiltInPlaceholders} with {@code builtIns} and
   * claiming each id in {@code ids}, so that a duplicate anywhere in the run is caught where it is
   * written.
   */
  List<TaskSpec> expand(SchedulerConfig config, Map<String, String> builtIns, TaskIds ids,
      SpecDependencies dependencies) throws SpecException {
    List<TaskSpec> result = new ArrayList<>();
    for (TaskEntry entry : tasks) {
      for (TaskSpec task : entry.expand(this, config, builtIns, dependencies)) {
        ids.claim(task.id().value(), name, entry.field());
        result.add(task);
      }
    }
    return result;
  }
}
