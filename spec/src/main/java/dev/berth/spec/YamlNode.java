package dev.berth.spec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed YAML value. Unlike a generic tree it keeps every scalar's text exactly as written, so
 * that {@code 0.10} in a matrix stays {@code "0.10"} in task ids and commands.
 */
sealed interface YamlNode {

  /** How the value looks in an error message: {@code 'two'}, {@code a list}, {@code empty}. */
  String describe();

  /**
   * The value as the settings parsers take it: a scalar's text exactly as written (null when
   * empty), a list of such values, or a mapping in written order.
   */
  Object asWritten();

  /** A mapping; keys keep the order they were written in. */
  record Mapping(Map<String, YamlNode> entries) implements YamlNode {
    /** The value under {@code key}, or null when the key is absent. */
    YamlNode get(String key) {
      return entries.get(key);
    }

    @Override
    public Map<String, Object> asWritten() {
      Map<String, Object> written = new LinkedHashMap<>();
      entries.forEach((key, value) -> written.put(key, value.asWritten()));
      return Collections.unmodifiableMap(written);
    }

    @Override
    public String describe() {
      return "a mapping";
    }
  }

  /** A list. */
  record Sequence(List<YamlNode> items) implements YamlNode {
    @Override
    public List<Object> asWritten() {
      return Collections.unmodifiableList(new ArrayList<>(items.stream().map(YamlNode::asWritten).toList()));
    }

    @Override
    public String describe() {
      return "a list";
    }
  }

  /**
   * A scalar.
   *
   * @param kind how YAML resolved it
   * @param text the text as written (empty for null)
   * @param number the numeric value for {@link Kind#INTEGER} and {@link Kind#DECIMAL} when it is
   *     finite, otherwise null
   */
  record Scalar(Kind kind, String text, java.math.BigDecimal number) implements YamlNode {
    /** Whether the value is YAML null ({@code ~}, {@code null} or nothing at all). */
    boolean isNull() {
      return kind == Kind.NULL;
    }

    @Override
    public String asWritten() {
      return isNull() ? null : text;
    }

    @Override
    public String describe() {
      return isNull() ? "empty" : "'" + text + "'";
    }
  }

  /** How YAML resolved a scalar. */
  enum Kind {
    STRING,
    INTEGER,
    DECIMAL,
    BOOLEAN,
    NULL
  }
}
