package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.settings.ValueParser;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One supported config key: how to parse it, where it goes on {@link SchedulerConfig.Builder}
 * and how its current value reads back.
 *
 * @param key the dotted key, e.g. {@code scheduler.max-process}
 * @param meaning one line for people
 * @param parser parses the value's type; ranges are {@link SchedulerConfig}'s to check
 * @param setter puts the value on the builder
 * @param shown a configuration's value of this key, written so that it could be read back
 * @param <T> the parsed value
 */
record ConfigEntry<T>(
    String key,
    String meaning,
    ValueParser<T> parser,
    BiConsumer<SchedulerConfig.Builder, T> setter,
    Function<SchedulerConfig, String> shown) {

  /** The section part of the key, e.g. {@code scheduler}. */
  String section() {
    return key.substring(0, key.indexOf('.'));
  }

  /**
   * Parses the value at {@code field} and checks it against {@link SchedulerConfig}'s rules, so
   * that an out-of-range value is reported where it was written.
   */
  T read(YamlNode node, Field field) throws SpecException {
    T value = field.read(parser, node);
    SchedulerConfig.Builder probe = SchedulerConfig.builder();
    try {
      setter.accept(probe, value); // a section's own record (smtp, slurm) checks its value here
      probe.build();
    } catch (IllegalArgumentException e) {
      throw field.problem(asWritten(ruleOf(e), node));
    }
    return value;
  }

  /** The rule quoting the value as the user wrote it ('0s'), not as Java prints it (PT0S). */
  private static String asWritten(String rule, YamlNode node) {
    int was = rule.lastIndexOf(" but was ");
    return was < 0 ? rule : rule.substring(0, was) + " but was " + node.describe();
  }

  /** {@link SchedulerConfig}'s message without the key it starts with, which the field already names. */
  String ruleOf(IllegalArgumentException e) {
    String message = String.valueOf(e.getMessage());
    return message.startsWith(key + " ") ? message.substring(key.length() + 1) : message;
  }

  /** Sets {@code value}, which {@link #read} returned, on {@code builder}. */
  @SuppressWarnings("unchecked") // callers only pass what read() returned
  void set(SchedulerConfig.Builder builder, Object value) {
    setter.accept(builder, (T) value);
  }
}
