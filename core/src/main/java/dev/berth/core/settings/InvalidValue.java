package dev.berth.core.settings;

import java.util.Objects;

/**
 * A value that breaks a setting's rule. It states the rule (e.g. {@code must be a whole number >= 0
 * but was '-2'}), where inside the value it lies (e.g. {@code [1]} for the second item of a list,
 * {@code tasks[1]} inside a mapping, empty for the value itself) and, when known, the task whose
 * value it is. Whoever knows where the value was written places it.
 */
public final class InvalidValue extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String task;
  private final String path;
  private final String rule;

  /** A problem with the value as a whole. */
  public InvalidValue(String rule) {
    this(null, "", rule);
  }

  /**
   * A problem at {@code path} inside a value of {@code task}.
   *
   * @param task the task's id, or null when the value belongs to no one task (yet)
   * @param path where inside the value, e.g. {@code after[1]}; empty for the value itself
   * @param rule what is wrong and, where possible, how to fix it
   */
  public InvalidValue(String task, String path, String rule) {
    super(task == null || rule.startsWith("task " + task + " ") ? rule : "task " + task + ": " + rule);
    this.task = task;
    this.path = Objects.requireNonNull(path, "path");
    this.rule = Objects.requireNonNull(rule, "rule");
  }

  /** The rule that was broken. */
  public String rule() {
    return rule;
  }

  /** Where inside the value, e.g. {@code [1]} or {@code tasks[0]}; empty for the value itself. */
  public String path() {
    return path;
  }

  /** The id of the task whose value this is, or null when unknown. */
  public String task() {
    return task;
  }

  /** The same problem, seen from the mapping that holds the value under {@code key}. */
  public InvalidValue under(String key) {
    return new InvalidValue(task, join(key, path), rule);
  }

  /** The same problem, seen from the list that holds the value at {@code index}. */
  public InvalidValue at(int index) {
    return new InvalidValue(task, join("[" + index + "]", path), rule);
  }

  /** The same problem, as a problem of {@code taskId}'s value. */
  public InvalidValue of(String taskId) {
    return new InvalidValue(taskId, path, rule);
  }

  /** {@code inner} as seen from {@code outer}: {@code env} and {@code A} give {@code env.A}. */
  public static String join(String outer, String inner) {
    if (inner.isEmpty()) {
      return outer;
    }
    if (outer.isEmpty()) {
      return inner;
    }
    return inner.startsWith("[") ? outer + inner : outer + "." + inner;
  }
}
