package dev.berth.client;

import dev.berth.core.settings.PlaceholderText;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Fills placeholders the way a spec does ({@link PlaceholderText}), with the Java API's errors, and
 * turns values into placeholder text. For {@link Berth#map} only, {@code {}} stands for the whole input.
 */
final class Placeholders {

  /** What a placeholder may be called; the spec's rule for matrix variables. */
  static final Pattern VARIABLE = PlaceholderText.VARIABLE;

  private Placeholders() {}

  /** The placeholder names {@code text} uses, in order. */
  static Set<String> names(String text) {
    return PlaceholderText.names(text);
  }

  /**
   * {@code text} with every placeholder replaced.
   *
   * @param bare the value of {@code {}}, or null when {@code {}} is kept as written
   * @param where what the text is, for the error, e.g. {@code "command of task train-{lr}"}
   * @throws IllegalArgumentException naming the placeholder and the names that have values
   */
  static String fill(String text, Map<String, String> values, String bare, String where) {
    PlaceholderText.missing(text, values).ifPresent(name -> {
      throw new IllegalArgumentException(where + ": placeholder '{" + name + "}' has no value"
          + (values.isEmpty() ? "" : "; the values are " + String.join(", ", values.keySet()))
          + "; write '{{" + name + "}}' to keep the braces");
    });
    return PlaceholderText.fill(text, values, bare);
  }

  /**
   * A value as placeholder text: strings as they are; a {@code double} or {@code float} as Java prints
   * it ({@code 0.1}, {@code 1.0}) but never with an exponent ({@code 1.0E-4} becomes {@code 0.0001});
   * a {@code BigDecimal} in plain notation; everything else through {@link String#valueOf}. Pass
   * strings to control the text exactly.
   */
  static String text(Object value) {
    if (value == null) {
      throw new IllegalArgumentException("a value must not be null");
    }
    if (value instanceof Double || value instanceof Float) {
      String s = value.toString();
      if (s.contains("E")) {
        return new java.math.BigDecimal(s).stripTrailingZeros().toPlainString();
      }
      return s;
    }
    if (value instanceof java.math.BigDecimal b) {
      return b.toPlainString();
    }
    return String.valueOf(value);
  }
}
