package dev.berth.core.model;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.settings.InvalidValue;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The group-settable {@link TaskKeys} that a group or a task sets, parsed. Immutable. A task's
 * effective values are its group's {@link #overriddenBy} its own; {@link #applyTo} puts them, or
 * the config's fallbacks, on the task. The YAML reader and the Java builders both go through here,
 * so a spec and its Java twin give equal tasks.
 */
public final class TaskValues {

  /** Nothing set. */
  public static final TaskValues NONE = new TaskValues(Map.of());

  /** Values by key; never iterated: {@link TaskKeys#ALL} gives the order. */
  private final Map<String, Object> values;

  private TaskValues(Map<String, Object> values) {
    this.values = values;
  }

  /**
   * Parses the group-settable keys of a mapping as written; other keys are the caller's.
   *
   * @throws InvalidValue placed under the key whose value breaks its rule
   */
  public static TaskValues read(Map<String, ?> written) {
    TaskValues read = NONE;
    for (TaskKey<?> key : TaskKeys.groupKeys()) {
      if (written.containsKey(key.key())) {
        read = read.with(key, written.get(key.key()));
      }
    }
    return read;
  }

  /**
   * These values with {@code written} parsed for {@code key} and combined with what is set already,
   * as a task's value combines with its group's: {@code env} adds, other keys replace.
   *
   * @throws InvalidValue placed under the key when the value breaks its rule
   */
  public <T> TaskValues with(TaskKey<T> key, Object written) {
    if (!key.groupMaySet()) {
      throw new IllegalArgumentException(key.key() + " is not a setting a group may give its tasks");
    }
    T parsed;
    try {
      parsed = key.parse(written);
    } catch (InvalidValue e) {
      throw e.under(key.key());
    }
    T old = raw(key);
    return put(key, old == null ? parsed : key.merge().apply(old, parsed));
  }

  /** The value set for {@code key}, if any. */
  public <T> Optional<T> get(TaskKey<T> key) {
    return Optional.ofNullable(raw(key));
  }

  /** Whether {@code key} is set. */
  public boolean has(TaskKey<?> key) {
    return values.containsKey(key.key());
  }

  /** These values as a group's defaults, with {@code task}'s values combined over them. */
  public TaskValues overriddenBy(TaskValues task) {
    TaskValues merged = this;
    for (TaskKey<?> key : TaskKeys.groupKeys()) {
      merged = merged.over(key, task);
    }
    return merged;
  }

  /**
   * These values with their placeholders filled by {@code fill}.
   *
   * @throws InvalidValue placed under the key and inside the value, when {@code fill} throws one
   */
  public TaskValues filled(UnaryOperator<String> fill) {
    TaskValues filled = this;
    for (TaskKey<?> key : TaskKeys.groupKeys()) {
      filled = filled.fill(key, fill);
    }
    return filled;
  }

  /**
   * Puts every value with an applier, or its config fallback, on {@code task}, in table order,
   * and the config's GPU memory for a task that asks for a GPU without saying how much. The
   * dependencies are the caller's: they need every task to resolve.
   */
  public void applyTo(TaskSpec.Builder task, SchedulerConfig config) {
    for (TaskKey<?> key : TaskKeys.groupKeys()) {
      apply(key, task, config);
    }
    task.defaultGpuMemoryBytes(config.defaultCudaMemoryBytes());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TaskValues other && other.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  private <T> TaskValues put(TaskKey<T> key, T value) {
    Map<String, Object> copy = new HashMap<>(values);
    copy.put(key.key(), value);
    return new TaskValues(Map.copyOf(copy));
  }

  // The steps below run for every key of every task of a sweep: plain nulls, no Optional or lambda per call.

  private <T> T raw(TaskKey<T> key) {
    @SuppressWarnings("unchecked") // values only holds what the key's own parser returned
    T value = (T) values.get(key.key());
    return value;
  }

  private <T> TaskValues over(TaskKey<T> key, TaskValues task) {
    T own = task.raw(key);
    if (own == null) {
      return this;
    }
    T group = raw(key);
    return put(key, group == null ? own : key.merge().apply(group, own));
  }

  private <T> TaskValues fill(TaskKey<T> key, UnaryOperator<String> fill) {
    T value = raw(key);
    if (value == null) {
      return this;
    }
    T filled;
    try {
      filled = key.filler().fill(value, fill);
    } catch (InvalidValue e) {
      throw e.under(key.key());
    }
    return filled == value ? this : put(key, filled); // no placeholder: these very values, not a copy
  }

  private <T> void apply(TaskKey<T> key, TaskSpec.Builder task, SchedulerConfig config) {
    if (key.applier() == null && key.carried() == null) {
      return;
    }
    T value = raw(key);
    if (value == null && key.fallback() != null) {
      value = key.fallback().apply(config);
    }
    if (value == null) {
      return;
    }
    if (key.applier() != null) {
      key.applier().apply(task, value);
    } else {
      task.set(key, value);
    }
  }
}
