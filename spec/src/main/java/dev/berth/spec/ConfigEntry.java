package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.settings.Setting;
import dev.berth.core.settings.ValueParser;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One supported config key: its row of the settings table (key, type, parser, default, docs), where
 * its value goes on {@link SchedulerConfig.Builder} and how a configuration's value reads back.
 *
 * @param setting key, type, parser, default and docs; ranges are {@link SchedulerConfig}'s to check
 * @param setter puts the value on the builder
 * @param shown a configuration's value of this key, written so that it could be read back
 * @param <T> the parsed value
 */
record ConfigEntry<T>(
    Setting<T> setting,
    BiConsumer<SchedulerConfig.Builder, T> setter,
    Function<SchedulerConfig, String> shown) {

  /** The entry for {@code key}, whose default is the value {@link SchedulerConfig#DEFAULTS} shows. */
  static <T> ConfigEntry<T> of(String key, String type, ValueParser<T> parser,
      BiConsumer<SchedulerConfig.Builder, T> setter, Function<SchedulerConfig, String> shown, String docs) {
    return new ConfigEntry<>(new Setting<>(key, type, parser, shown.apply(SchedulerConfig.DEFAULTS), docs), setter,
        shown);
  }

  /** The dotted key, e.g. {@code scheduler.max-process}. */
  String key() {
    return setting.key();
  }

  /** The section part of the key, e.g. {@code scheduler}. */
  String section() {
    return key().substring(0, key().indexOf('.'));
  }

  /**
   * Parses the value at {@code field} and checks it against {@link SchedulerConfig}'s rules, so
   * that an out-of-range value is reported where it was written.
   */
  T read(YamlNode node, Field field) throws SpecException {
    T value = field.read(setting.parser(), node);
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
    return message.startsWith(key() + " ") ? message.substring(key().length() + 1) : message;
  }

  /** Sets {@code value}, which {@link #read} returned, on {@code builder}. */
  @SuppressWarnings("unchecked") // callers only pass what read() returned
  void set(SchedulerConfig.Builder builder, Object value) {
    setter.accept(builder, (T) value);
  }
}
