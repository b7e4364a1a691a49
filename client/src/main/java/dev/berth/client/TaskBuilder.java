package dev.berth.client;

import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.model.TaskValues;
import dev.berth.core.settings.InvalidValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One task to run: its id, its argument vector and any of the spec's task keys (see
 * {@link TaskSettings}). Made by {@link Tasks#command} or {@link Tasks#java}; run by
 * {@link Berth#submit(TaskBuilder)}, {@link Berth#executeTask(TaskBuilder)}, or as part of a group
 * ({@link Groups}). Keys left unset take the group's and then the configuration's value when the
 * task is submitted, as in a YAML spec. Mutable and not thread-safe; each submission takes a copy.
 */
public final class TaskBuilder extends TaskSettings<TaskBuilder> {

  private final String id;
  private List<String> command;
  private final Map<String, String> params = new LinkedHashMap<>();
  private boolean java;
  private String template;
  private PoolSpec pool;

  TaskBuilder(String id, List<String> command) {
    this(id, command, TaskValues.NONE);
  }

  TaskBuilder(String id, List<String> command, TaskValues values) {
    super(values);
    TaskId.of(id); // the id names the task's folder: check it where it is written
    this.id = id;
    command(command);
  }

  private TaskBuilder(TaskBuilder other) {
    super(other.values);
    this.id = other.id;
    this.command = other.command;
    this.params.putAll(other.params);
    this.java = other.java;
    this.template = other.template;
    this.pool = other.pool;
  }

  /** The task's id. */
  public String id() {
    return id;
  }

  /** The argument vector. */
  public List<String> command() {
    return command;
  }

  /**
   * Replaces the argument vector; it is never passed through a shell.
   *
   * @throws IllegalArgumentException when empty or the program is blank
   */
  public TaskBuilder command(List<String> argv) {
    this.command = checkCommand(argv, "task " + id);
    return this;
  }

  /** {@code argv} checked as a spec's {@code command} is; a problem names {@code whose} command it is. */
  static List<String> checkCommand(List<String> argv, String whose) {
    try {
      return TaskKeys.COMMAND.parse(argv);
    } catch (InvalidValue e) {
      throw new IllegalArgumentException(whose + ": " + TaskSettings.message(e.under(TaskKeys.COMMAND.key())), e);
    }
  }

  /**
   * Adds a parameter: shown in reports and sweep tables, and passed as {@code BERTH_PARAM_<NAME>}.
   * The value becomes text as {@link Tasks} describes for placeholders.
   */
  public TaskBuilder param(String name, Object value) {
    Objects.requireNonNull(name, "name");
    params.put(name, Placeholders.text(value));
    return this;
  }

  /** Adds parameters; see {@link #param(String, Object)}. */
  public TaskBuilder params(Map<String, ?> values) {
    values.forEach(this::param);
    return this;
  }

  /** The parameters, in the order they were added. */
  public Map<String, String> params() {
    return Collections.unmodifiableMap(params);
  }

  /** Whether the task speaks the load/train protocol, as set here or, for a Java task, by default. */
  public boolean twoStage() {
    return values.get(TaskKeys.TWO_STAGE).orElse(java);
  }

  /** Whether the task was made by {@link Tasks#java}: it then speaks the protocol unless told otherwise. */
  boolean java() {
    return java;
  }

  /** The id pattern of the template this task was expanded from, or its own id. */
  String template() {
    return template == null ? id : template;
  }

  TaskBuilder template(String idPattern) {
    this.template = idPattern;
    return this;
  }

  /** The pool whose warm engines run the task, or null for a process of its own. */
  PoolSpec pool() {
    return pool;
  }

  TaskBuilder inPool(PoolSpec engines) {
    this.pool = engines;
    return this;
  }

  TaskBuilder java(boolean isJava) {
    this.java = isJava;
    return this;
  }

  /** An independent copy. */
  public TaskBuilder copy() {
    return new TaskBuilder(this);
  }

  /**
   * The task as the core model has it, in {@code group}, with unset keys taken from {@code config}.
   * Dependencies are taken as the task ids written; globs and {@code group:NAME} need the other
   * tasks and are only resolved by a session or a {@link RunBuilder}.
   *
   * @throws IllegalArgumentException when a value breaks a rule of the model, or a dependency is a glob
   */
  public TaskSpec toSpec(String group, SchedulerConfig config) {
    GroupBuilder.checkName(group);
    return GroupDraft.alone(group, this).standalone(config).tasks().get(0);
  }
}
