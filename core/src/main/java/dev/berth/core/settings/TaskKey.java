package dev.berth.core.settings;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One task key of {@link TaskKeys}: its {@link Setting}, whether a group may set it as the default
 * of its tasks, how a task's value combines with its group's, where placeholders are filled, and
 * how the effective value lands on the task.
 *
 * @param setting key, type, parser, default and docs
 * @param groupMaySet whether a group may set it for its tasks
 * @param merge combines (group value, task value); by default the task's wins
 * @param applier puts the effective value on the task being built; null for a key applied elsewhere
 *     (the task's own keys, and the dependencies, which need every task to resolve)
 * @param fallback the value when neither task nor group sets it; null when the task's built-in default applies
 * @param filler fills the placeholders of a value; identity for a key that takes none
 * @param <T> the parsed value
 */
public record TaskKey<T>(
    Setting<T> setting,
    boolean groupMaySet,
    BinaryOperator<T> merge,
    Applier<T> applier,
    Function<SchedulerConfig, T> fallback,
    Filler<T> filler) {

  /** Puts an effective value on a task. */
  @FunctionalInterface
  public interface Applier<T> {
    /** Applies {@code value} to {@code task}. */
    void apply(TaskSpec.Builder task, T value);
  }

  /** Fills the placeholders of a value. */
  @FunctionalInterface
  public interface Filler<T> {
    /**
     * {@code value} with each text that may hold placeholders passed through {@code fill}.
     *
     * @throws InvalidValue placed where inside the value the text was, when {@code fill} throws one
     */
    T fill(T value, UnaryOperator<String> fill);
  }

  /** A key a group may set, whose task value replaces its group's, with no config fallback and no placeholders. */
  static <T> TaskKey<T> of(Setting<T> setting, Applier<T> applier) {
    return new TaskKey<>(setting, true, (group, task) -> task, applier, null, (value, fill) -> value);
  }

  /** A key only a task may set, which each front door reads in its own way. */
  static <T> TaskKey<T> own(Setting<T> setting) {
    return new TaskKey<>(setting, false, (group, task) -> task, null, null, (value, fill) -> value);
  }

  /** The key as written, e.g. {@code memory}. */
  public String key() {
    return setting.key();
  }

  /** Parses a value as written; a problem names no key, the caller places it. */
  public T parse(Object written) {
    return setting.parse(written);
  }

  /** The same key, combining group and task values with {@code merge}. */
  TaskKey<T> mergedWith(BinaryOperator<T> merge) {
    return new TaskKey<>(setting, groupMaySet, merge, applier, fallback, filler);
  }

  /** The same key, taking its value from the config when neither task nor group sets it. */
  TaskKey<T> orElse(Function<SchedulerConfig, T> fallback) {
    return new TaskKey<>(setting, groupMaySet, merge, applier, fallback, filler);
  }

  /** The same key, whose values take placeholders as {@code filler} says. */
  TaskKey<T> filledBy(Filler<T> filler) {
    return new TaskKey<>(setting, groupMaySet, merge, applier, fallback, filler);
  }
}
