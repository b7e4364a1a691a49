package dev.berth.client;

import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.TaskValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A task with placeholders, expanded once per parameter combination: the Java form of a spec task
 * with a {@code matrix}. {@code {name}} in the id, the command, {@code env} values and dependency
 * entries is replaced by the value of {@code name}; {@code {{name}}} keeps the braces; other braces
 * are kept as written. Used by {@link GroupBuilder#matrix}, {@link Berth#tune} and {@link Berth#map},
 * where {@code {}} stands for the whole input.
 *
 * <p>Example: {@code Tasks.template("train-{lr}", "python3", "train.py", "--lr", "{lr}").memory("1GiB")}.
 */
public final class TaskTemplate extends TaskSettings<TaskTemplate> {

  private final String id;
  private final List<String> command;
  /** A call's command from its input's values (its keyword arguments), or null for a command with placeholders. */
  private final Function<Map<String, String>, List<String>> callCommand;
  /** The pool whose warm engines run the tasks, or null for a process each. */
  private PoolSpec pool;

  TaskTemplate(String id, List<String> command) {
    this(id, command, null);
  }

  /** A template whose tasks' commands {@code callCommand} makes from their values instead of filling {@code command}. */
  TaskTemplate(String id, List<String> command, Function<Map<String, String>, List<String>> callCommand) {
    this.id = Objects.requireNonNull(id, "id");
    if (id.isBlank()) {
      throw new IllegalArgumentException("a task template needs an id pattern such as train-{lr}");
    }
    this.command = TaskBuilder.checkCommand(command, "template " + id);
    this.callCommand = callCommand;
  }

  /** This template, its tasks run in {@code engines}' warm engines. */
  TaskTemplate inPool(PoolSpec engines) {
    this.pool = engines;
    return this;
  }

  /** The id pattern, e.g. {@code train-{lr}}. */
  public String id() {
    return id;
  }

  /** The command with its placeholders. */
  public List<String> command() {
    return command;
  }

  /**
   * The task for one combination of values; the values also become the task's parameters.
   *
   * @throws IllegalArgumentException when a placeholder has no value or the id is not a valid task id
   */
  public TaskBuilder expand(Map<String, String> values) {
    return expand(values, null, values);
  }

  /** Expands with {@code bare} as the value of {@code {}} (null keeps {@code {}} as written). */
  TaskBuilder expand(Map<String, String> values, String bare, Map<String, String> params) {
    String taskId = Placeholders.fill(id, values, bare, "id of template " + id);
    List<String> argv = new ArrayList<>();
    if (callCommand != null) {
      argv.addAll(callCommand.apply(params));
    } else {
      for (String arg : command) {
        argv.add(Placeholders.fill(arg, values, bare, "command of task " + taskId));
      }
    }
    TaskValues filled = this.values.filled(v -> Placeholders.fill(v, values, bare, "task " + taskId));
    TaskBuilder task;
    try {
      task = new TaskBuilder(taskId, argv, filled);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("template " + id + " gives " + e.getMessage(), e);
    }
    return task.params(params).template(id).inPool(pool);
  }
}
