package dev.berth.spec;

import dev.berth.core.model.Names;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.model.TaskValues;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.MatrixIds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry under a group's {@code tasks}, parsed but not yet expanded: with a matrix it stands for
 * many tasks.
 *
 * @param field where the entry is, e.g. {@code groups[1].tasks[0]}
 * @param id the id, possibly with placeholders
 * @param command the argument vector, possibly with placeholders
 * @param matrix the variables to expand over; {@link Matrix#NONE} without one
 * @param settings the entry's own settings, before its group's defaults apply
 * @param java the Java task it runs, or null for a command
 * @param call the Python function it calls, or null for a command
 */
record TaskEntry(Field field, Template id, List<Template> command, Matrix matrix, TaskValues settings,
    JavaTask java, CallTask call) {

  /** Parses the entry at {@code field}, whose call (if any) runs in one of {@code pools}. */
  static TaskEntry parse(YamlNode node, Field field, Pools pools) throws SpecException {
    YamlNode.Mapping map = Keys.mapping(node, field, "task keys such as id and command");
    Keys.requireKnown(map, field, TaskKeys.names(), Map.of(
        "name", "a task is named by 'id', not 'name'",
        "tasks", "tasks cannot be nested; list them under the group's 'tasks'"));
    Field idField = field.key(TaskKeys.ID.key());
    Template id = new Template(idField.read(TaskKeys.ID::parse,
        Keys.required(map, TaskKeys.ID.key(), field, "is required, e.g. id: train-{lr}")), idField);
    CallTask call = CallTask.parse(map, field, pools);
    JavaTask java = JavaTask.parse(map, field, pools);
    List<Template> command = new ArrayList<>();
    if (call != null) {
      // runs the call; the command is made for each task
    } else if (java != null) {
      if (map.get(TaskKeys.COMMAND.key()) != null) {
        throw field.key(TaskKeys.COMMAND.key()).problem("a task has either command or java, not both");
      }
    } else {
      Field f = field.key(TaskKeys.COMMAND.key());
      List<String> argv = f.read(TaskKeys.COMMAND::parse, Keys.required(map, TaskKeys.COMMAND.key(), field,
          "is required: the program and its arguments as a list, e.g. [python3, train.py], or java: with a class"
              + " implementing dev.berth.task.BerthTask"));
      for (int i = 0; i < argv.size(); i++) {
        command.add(new Template(argv.get(i), f.index(i)));
      }
    }
    YamlNode matrixNode = map.get(TaskKeys.MATRIX.key());
    Matrix matrix = matrixNode == null ? Matrix.NONE : Matrix.parse(matrixNode, field.key(TaskKeys.MATRIX.key()));
    return new TaskEntry(field, id, List.copyOf(command), matrix, settings(map, field), java, call);
  }

  /** The group-settable keys of a task or group entry, parsed. */
  static TaskValues settings(YamlNode.Mapping map, Field field) throws SpecException {
    try {
      return TaskValues.read(map.asWritten());
    } catch (InvalidValue e) {
      throw field.problem(e);
    }
  }

  /**
   * The tasks this entry stands for, one per matrix combination in matrix order.
   *
   * @param group the entry's group, whose settings its tasks default to
   * @param config supplies defaults neither task nor group sets
   * @param builtIns values of the placeholders every task may use, such as {@code spec_dir}
   * @param dependencies collects the tasks' dependencies for resolution once every task is known
   */
  List<TaskSpec> expand(GroupEntry group, SchedulerConfig config, Map<String, String> builtIns,
      SpecDependencies dependencies) throws SpecException {
    List<TaskSpec> tasks = new ArrayList<>();
    Map<String, Map<String, String>> seen = new HashMap<>();
    for (Map<String, String> combination : matrix.combinations()) {
      Map<String, String> values = new LinkedHashMap<>(builtIns);
      values.putAll(combination);
      String taskId = id.fill(values);
      TaskSpec.Builder builder = builder(taskId, group.name(), combination);
      Map<String, String> earlier = seen.putIfAbsent(taskId, combination);
      if (earlier != null) {
        throw id.field().problem(MatrixIds.sameId(id.text(), matrix.variables(), taskId, earlier, combination));
      }
      List<String> argv = new ArrayList<>();
      for (Template arg : command) {
        argv.add(arg.fill(values));
      }
      if (java != null) {
        argv = java.command(values);
        builder.twoStage(java.pool() == null); // an engine runs load and train itself
        builder.set(TaskKeys.POOL, java.pool() == null ? null : java.pool().carried());
      }
      if (call != null) {
        argv = call.command(values, combination);
        builder.set(TaskKeys.POOL, call.pool() == null ? null : call.pool().carried());
      }
      builder.command(argv).params(combination).template(id.text());
      TaskValues own = filled(settings, field, values);
      TaskValues effective = filled(group.defaults(), group.field(), values).overriddenBy(own);
      effective.applyTo(builder, config);
      dependencies.record(taskId, effective, own, field, group.field());
      try {
        tasks.add(builder.build());
      } catch (InvalidValue e) {
        throw field.problem(e);
      } catch (IllegalArgumentException e) {
        throw field.problem(e.getMessage());
      }
    }
    return tasks;
  }

  private static TaskValues filled(TaskValues settings, Field where, Map<String, String> values)
      throws SpecException {
    try {
      return settings.filled(Template.filler(values));
    } catch (InvalidValue e) {
      throw where.problem(e);
    }
  }

  private TaskSpec.Builder builder(String taskId, String group, Map<String, String> values) throws SpecException {
    if (taskId.length() > Names.MAX_LENGTH) {
      throw id.field().problem("'" + taskId.substring(0, 40) + "…' is " + taskId.length() + " characters long;"
          + " a task id names the task's folder, which holds at most " + Names.MAX_LENGTH);
    }
    try {
      return TaskSpec.builder(taskId, group);
    } catch (IllegalArgumentException e) {
      String from = values.isEmpty() ? "" : " (from " + MatrixIds.describe(values) + ")";
      throw id.field().problem("'" + taskId + "'" + from + " is not a valid task id; use only letters,"
          + " digits and . _ - + = @ , (and not '.' or '..')");
    }
  }
}
