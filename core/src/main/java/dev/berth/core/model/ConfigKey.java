package dev.berth.core.model;

import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Setting;
import dev.berth.core.settings.ValueParser;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One config key of a settings record: its row of the table (key, type, parser, docs), where a
 * parsed value goes on the record's builder, and how a record's value reads back, typed (for the
 * journal) and as a user writes it (for {@code berth config}).
 *
 * @param key the dotted key, e.g. {@code smtp.server-host}
 * @param type what its values look like, for people
 * @param parser reads a value as written
 * @param set puts a parsed value on the builder
 * @param get the record's value
 * @param show a value as a user writes it, so that it reads back
 * @param docs one line for people
 * @param secret whether the value is never written down (a password): not journaled, shown as {@code ****}
 * @param secretVariable whether the value names an environment variable that holds a secret (such as
 *     {@code smtp.password-env}), which Berth reads and keeps out of tasks' environments
 * @param journaledWhenSet whether the journal keeps the value only when it differs from the default: a
 *     key added after journals were written, so that their stored specs stay the same text
 * @param <R> the settings record
 * @param <B> its builder
 * @param <T> the parsed value
 */
public record ConfigKey<R, B, T>(String key, String type, ValueParser<T> parser, BiConsumer<B, T> set,
    Function<R, T> get, Function<T, String> show, String docs, boolean secret, boolean secretVariable,
    boolean journaledWhenSet) {

  /**
   * Checks that every part is given and the key has a section, e.g. {@code scheduler.}, unless it is
   * written inside a mapping of its own (a pool's {@code size}), which the mapping places.
   */
  public ConfigKey {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty() || key.startsWith(".") || key.endsWith(".")) {
      throw new IllegalArgumentException("a config key is section.name, or a name inside its own mapping, not " + key);
    }
  }

  /** A key whose value is written down. */
  public static <R, B, T> ConfigKey<R, B, T> of(String key, String type, ValueParser<T> parser, BiConsumer<B, T> set,
      Function<R, T> get, Function<T, String> show, String docs) {
    return new ConfigKey<>(key, type, parser, set, get, show, docs, false, false, false);
  }

  /** A key of text shown as written. */
  public static <R, B> ConfigKey<R, B, String> text(String key, BiConsumer<B, String> set, Function<R, String> get,
      String docs) {
    return of(key, "text", Parsers.TEXT, set, get, Function.identity(), docs);
  }

  /** The same key, as a secret. */
  public ConfigKey<R, B, T> asSecret() {
    return new ConfigKey<>(key, type, parser, set, get, show, docs, true, false, journaledWhenSet);
  }

  /** The same key, as the name of an environment variable that holds a secret. */
  public ConfigKey<R, B, T> asSecretVariable() {
    return new ConfigKey<>(key, type, parser, set, get, show, docs, false, true, journaledWhenSet);
  }

  /** The same key, journaled only when its value differs from the default. */
  public ConfigKey<R, B, T> asJournaledWhenSet() {
    return new ConfigKey<>(key, type, parser, set, get, show, docs, secret, secretVariable, true);
  }

  /** The section, e.g. {@code smtp}; empty for a key without one. */
  public String section() {
    return key.substring(0, Math.max(0, key.indexOf('.')));
  }

  /** The key within its section, e.g. {@code server-host}. */
  public String name() {
    return key.substring(key.indexOf('.') + 1);
  }

  /** The row of the docs, with {@code defaults}' value as the default. */
  public Setting<T> setting(R defaults) {
    return new Setting<>(key, type, parser, shown(defaults), docs);
  }

  /** {@code record}'s value as a user writes it; a secret that is set shows as {@code ****}. */
  public String shown(R record) {
    String text = show.apply(get.apply(record));
    return secret && !text.isEmpty() ? "****" : text;
  }

  /** Parses {@code written} and puts it on {@code builder}. */
  void read(B builder, Object written) {
    set.accept(builder, parser.parse(written));
  }

  /** Puts {@code value}, which this key's parser returned, on {@code builder}. */
  @SuppressWarnings("unchecked") // only values this key's own parser returned are given
  public void put(B builder, Object value) {
    set.accept(builder, (T) value);
  }
}
