package dev.berth.core.settings;

import java.util.Objects;

/**
 * One key a user may write: the row of a settings table that the readers, the Java builders,
 * {@code berth config --defaults} and the README all take it from.
 *
 * @param key the key as written, e.g. {@code memory} or {@code scheduler.max-process}
 * @param type what its values look like, for people, e.g. {@code memory size}
 * @param parser reads a value as written
 * @param defaultValue the value when nothing sets it, written as a user would write it
 * @param docs one line for people
 * @param <T> the parsed value
 */
public record Setting<T>(String key, String type, ValueParser<T> parser, String defaultValue, String docs) {

  /** The type of a key whose values are memory sizes: people see them with units. */
  public static final String MEMORY_SIZE = "memory size";

  /** The type of a key whose values are durations: people see them compactly. */
  public static final String DURATION = "duration";

  /** Checks that every part is given. */
  public Setting {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(parser, "parser");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(docs, "docs");
  }

  /** Parses {@code written}; see {@link ValueParser#parse}. */
  public T parse(Object written) {
    return parser.parse(written);
  }
}
