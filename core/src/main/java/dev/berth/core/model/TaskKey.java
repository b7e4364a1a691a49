package dev.berth.core.model;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Setting;
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
 * @param applier puts the effective value on the task being built; null for a key the task carries as
 *     it is ({@link TaskSpec.Builder#set}), and for a key applied elsewhere (the task's own keys, and the
 *     dependencies, which need every task to resolve)
 * @param fallback the value when neither task nor group sets it; null when the task's built-in default applies
 * @param filler fills the placeholders of a value; identity for a key that takes none
 * @param carried how a task holds the key's value, or null for a key a task does not carry (the front
 *     doors' own keys, such as {@code matrix}, and the dependencies, which a task holds resolved)
 * @param <T> the parsed value
 */
public record TaskKey<T>(
    Setting<T> setting,
    boolean groupMaySet,
    BinaryOperator<T> merge,
    Applier<T> applier,
    Function<SchedulerConfig, T> fallback,
    Filler<T> filler,
    Carried<T> carried) {

  /**
   * How a task carries a key's value ({@link TaskSpec#get}): its slot in the task's {@link Settings},
   * the value of a task that sets nothing, the one form of a value a task holds, and the value as the
   * journal stores it.
   *
   * @param slot the key's place among the carried keys
   * @param initial the value of a task that sets nothing; null for none
   * @param canonical the form a task holds, e.g. cores rounded to thousandths, so that the journal gives back
   *     an equal task
   * @param stored the value as the journal stores it (numbers, text, true or false, lists and maps of them),
   *     which the key's parser reads back
   * @param storedWhenSet whether the journal leaves the key out while it has no value: a key added after
   *     journals were written, so that their stored specs stay the same text
   * @param <T> the parsed value
   */
  public record Carried<T>(int slot, T initial, UnaryOperator<T> canonical, Function<T, Object> stored,
      boolean storedWhenSet) {}

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
    return new TaskKey<>(setting, true, (group, task) -> task, applier, null, (value, fill) -> value, null);
  }

  /** A key a group may set, whose task value replaces its group's, put on the task as it is. */
  static <T> TaskKey<T> of(Setting<T> setting) {
    return of(setting, null);
  }

  /** A key only a task may set, which each front door reads in its own way. */
  static <T> TaskKey<T> own(Setting<T> setting) {
    return new TaskKey<>(setting, false, (group, task) -> task, null, null, (value, fill) -> value, null);
  }

  /** The slot of a key a task carries; see {@link Carried}. */
  public int slot() {
    if (carried == null) {
      throw new IllegalStateException("a task does not carry " + key());
    }
    return carried.slot();
  }

  /** The value of a task that sets nothing; null for none. */
  public T initial() {
    return carried.initial();
  }

  /** {@code value} in the one form a task holds; null stays null. */
  public T canonical(T value) {
    return value == null ? null : carried.canonical().apply(value);
  }

  /** {@code value} as the journal stores it; null stays null. */
  public Object stored(T value) {
    return value == null ? null : carried.stored().apply(value);
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
    return new TaskKey<>(setting, groupMaySet, merge, applier, fallback, filler, carried);
  }

  /** The same key, taking its value from the config when neither task nor group sets it. */
  TaskKey<T> orElse(Function<SchedulerConfig, T> fallback) {
    return new TaskKey<>(setting, groupMaySet, merge, applier, fallback, filler, carried);
  }

  /** The same key, whose values take placeholders as {@code filler} says. */
  TaskKey<T> filledBy(Filler<T> filler) {
    return new TaskKey<>(setting, groupMaySet, merge, applier, fallback, filler, carried);
  }

  /** The same key, carried by a task as {@code carried} says. */
  TaskKey<T> carriedAs(Carried<T> carried) {
    return new TaskKey<>(setting, groupMaySet, merge, applier, fallback, filler, carried);
  }
}
