package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One entry under a group's {@code tasks}, parsed but not yet expanded: with a matrix it stands for
 * many tasks.
 *
 * @param field where the entry is, e.g. {@code groups[1].tasks[0]}
 * @param id the id, possibly with placeholders
 * @param command the argument vector, possibly with placeholders
 * @param matrix the variables to expand over; {@link Matrix#NONE} without one
 * @param settings the entry's own settings, before its group's defaults apply
 */
record TaskEntry(Field field, Template id, List<Template> command, Matrix matrix, SettingValues settings,
    JavaTask java) {

  /** Keys only a task may set; everything else a task may set is a {@link TaskSettings} key. */
  static final List<String> OWN_KEYS = List.of("id", "command", "matrix", "java", "classpath", "jvm-args");

  /** Parses the entry at {@code field}. */
  static TaskEntry parse(YamlNode node, Field field) throws SpecException {
    YamlNode.Mapping map = Keys.mapping(node, field, "task keys such as id and command");
    Keys.requireKnown(map, field, keys(), Map.of(
        "name", "a task is named by 'id', not 'name'",
        "tasks", "tasks cannot be nested; list them under the group's 'tasks'"));
    Template id = new Template(
        Values.TEXT.parse(Keys.required(map, "id", field, "is required, e.g. id: train-{lr}"), field.key("id")),
        field.key("id"));
    JavaTask java = JavaTask.parse(map, field);
    List<Template> command;
    if (java != null) {
      if (map.get("command") != null) {
        throw field.key("command").problem("a task has either command or java, not both");
      }
      command = List.of();
    } else {
      command = command(
          Keys.required(map, "command", field, "is required: the program and its arguments as a list,"
              + " e.g. [python3, train.py], or java: with a class implementing dev.berth.task.BerthTask"),
          field.key("command"));
    }
    YamlNode matrixNode = map.get("matrix");
    Matrix matrix = matrixNode == null ? Matrix.NONE : Matrix.parse(matrixNode, field.key("matrix"));
    return new TaskEntry(field, id, command, matrix, SettingValues.parse(map, field), java);
  }

  /** Every key a task may set. */
  static List<String> keys() {
    return Stream.concat(OWN_KEYS.stream(), TaskSettings.keys().stream()).toList();
  }

  private static List<Template> command(YamlNode node, Field field) throws SpecException {
    if (node instanceof YamlNode.Scalar s) {
      throw field.problem("must be a list of arguments, not the single string " + s.describe()
          + "; write e.g. [python3, train.py, --lr, \"0.1\"], or [sh, -c, \"...\"] to run it through a shell");
    }
    if (!(node instanceof YamlNode.Sequence list)) {
      throw field.problem("must be a list of arguments, e.g. [python3, train.py], but was " + node.describe());
    }
    if (list.items().isEmpty()) {
      throw field.problem("must not be empty: list the program and its arguments, e.g. [python3, train.py]");
    }
    List<Template> argv = new ArrayList<>();
    for (int i = 0; i < list.items().size(); i++) {
      Field f = field.index(i);
      YamlNode item = list.items().get(i);
      if (!(item instanceof YamlNode.Scalar s) || s.isNull()) {
        throw f.problem("must be a single argument but was " + item.describe() + "; quote it if it is text");
      }
      argv.add(new Template(s.text(), f));
    }
    if (argv.get(0).text().isBlank()) {
      throw field.index(0).problem("the program to run must not be empty");
    }
    return List.copyOf(argv);
  }

  /**
   * The tasks this entry stands for, one per matrix combination in matrix order.
   *
   * @param group the group's name
   * @param groupDefaults the settings the group gives its tasks
   * @param config supplies defaults neither task nor group sets
   * @param builtIns values of the placeholders every task may use, such as {@code spec_dir}
   * @param dependencies collects the tasks' dependencies for resolution once every task is known
   */
  List<TaskSpec> expand(String group, SettingValues groupDefaults, SchedulerConfig config,
      Map<String, String> builtIns, DependencyResolver dependencies) throws SpecException {
    SettingValues effective = groupDefaults.overriddenBy(settings);
    List<TaskSpec> tasks = new ArrayList<>();
    Map<String, Map<String, String>> seen = new HashMap<>();
    for (Map<String, String> combination : matrix.combinations()) {
      Map<String, String> values = new LinkedHashMap<>(builtIns);
      values.putAll(combination);
      String taskId = id.fill(values);
      TaskSpec.Builder builder = builder(taskId, group, combination);
      Map<String, String> earlier = seen.putIfAbsent(taskId, combination);
      if (earlier != null) {
        throw id.field().problem(collision(taskId, earlier, combination));
      }
      List<String> argv = new ArrayList<>();
      for (Template arg : command) {
        argv.add(arg.fill(values));
      }
      if (java != null) {
        argv = java.command(values);
        builder.twoStage(true);
      }
      builder.command(argv).params(combination);
      effective.applyTo(builder, new Expansion(taskId, values, dependencies), config);
      builder.defaultGpuMemoryBytes(config.defaultCudaMemoryBytes());
      try {
        tasks.add(builder.build());
      } catch (IllegalArgumentException e) {
        throw field.problem(e.getMessage());
      }
    }
    return tasks;
  }

  private TaskSpec.Builder builder(String taskId, String group, Map<String, String> values) throws SpecException {
    try {
      return TaskSpec.builder(taskId, group);
    } catch (IllegalArgumentException e) {
      String from = values.isEmpty() ? "" : " (from " + describe(values) + ")";
      throw id.field().problem("'" + taskId + "'" + from + " is not a valid task id; use only letters,"
          + " digits and . _ - + = @ , (and not '.' or '..')");
    }
  }

  private String collision(String taskId, Map<String, String> first, Map<String, String> second) {
    List<String> missing = matrix.varying().stream().filter(v -> !id.variables().contains(v)).toList();
    String fix = missing.isEmpty()
        ? "make the id tell the combinations apart"
        : "add " + missing.stream().map(v -> "{" + v + "}").collect(Collectors.joining(", ")) + " to the id";
    return "'" + id.text() + "' gives the same id '" + taskId + "' for (" + describe(first) + ") and ("
        + describe(second) + "); " + fix;
  }

  private static String describe(Map<String, String> values) {
    return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
  }
}
