package dev.berth.client;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills placeholders the way a spec does: {@code {lr}} is replaced by the value of {@code lr},
 * {@code {{lr}}} stays as the literal text {@code {lr}}, and any other brace is kept as written. For
 * {@link Berth#map} only, {@code {}} stands for the whole input.
 */
final class Placeholders {

  /** What a placeholder may be called; the spec's rule for matrix variables. */
  static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

  private static final Pattern PLACEHOLDER = Pattern.compile(
      "\\{\\{(" + VARIABLE.pattern() + ")\\}\\}|\\{(" + VARIABLE.pattern() + ")\\}");

  private static final Pattern WITH_BARE = Pattern.compile(
      "\\{\\{(" + VARIABLE.pattern() + ")\\}\\}|\\{(" + VARIABLE.pattern() + ")\\}|(\\{\\})");

  private Placeholders() {}

  /** The placeholder names {@code text} uses, in order. */
  static Set<String> names(String text) {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = PLACEHOLDER.matcher(text);
    while (m.find()) {
      if (m.group(2) != null) {
        names.add(m.group(2));
      }
    }
    return names;
  }

  /**
   * {@code text} with every placeholder replaced.
   *
   * @param bare the value of {@code {}}, or null when {@code {}} is kept as written
   * @param where what the text is, for the error, e.g. {@code "command of task train-{lr}"}
   * @throws IllegalArgumentException naming the placeholder and the names that have values
   */
  static String fill(String text, Map<String, String> values, String bare, String where) {
    Matcher m = (bare == null ? PLACEHOLDER : WITH_BARE).matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) != null) {
        replacement = "{" + m.group(1) + "}";
      } else if (m.group(2) != null) {
        replacement = values.get(m.group(2));
        if (replacement == null) {
          throw new IllegalArgumentException(where + ": placeholder '{" + m.group(2) + "}' has no value"
              + (values.isEmpty() ? "" : "; the values are " + String.join(", ", values.keySet()))
              + "; write '{{" + m.group(2) + "}}' to keep the braces");
        }
      } else {
        replacement = bare;
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
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
