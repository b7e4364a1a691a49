package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * One task key that a group may also set, as the default for its tasks: how to parse it, how a
 * task's value combines with its group's, and how it lands on the {@link TaskSpec}. Supporting a
 * new task key means adding one of these to {@link TaskSettings#ALL}.
 *
 * @param key the key as written in the spec
 * @param parser parses the value
 * @param merge combines (group value, task value); by default the task's wins
 * @param applier puts the effective value on the task being built
 * @param fallback the value when neither task nor group sets the key, from the config; null when
 *     the builder's own default applies
 * @param <T> the parsed value
 */
record TaskSetting<T>(
    String key,
    ValueParser<T> parser,
    BinaryOperator<T> merge,
    Applier<T> applier,
    Function<SchedulerConfig, T> fallback) {

  /** Puts an effective value on a task, filling matrix placeholders where the key allows them. */
  @FunctionalInterface
  interface Applier<T> {
    /**
     * Applies {@code value} to {@code task}.
     *
     * @param expansion the task being expanded: its id and placeholder values
     */
    void apply(TaskSpec.Builder task, T value, Expansion expansion) throws SpecException;
  }

  /** A key whose task value replaces its group value and that has no config fallback. */
  static <T> TaskSetting<T> of(String key, ValueParser<T> parser, Applier<T> applier) {
    return new TaskSetting<>(key, parser, (group, task) -> task, applier, null);
  }

  /** The same key, combining group and task values with {@code merge}. */
  TaskSetting<T> mergedWith(BinaryOperator<T> merge) {
    return new TaskSetting<>(key, parser, merge, applier, fallback);
  }

  /** The same key, taking its value from the config when neither task nor group sets it. */
  TaskSetting<T> orElse(Function<SchedulerConfig, T> fallback) {
    return new TaskSetting<>(key, parser, merge, applier, fallback);
  }
}
