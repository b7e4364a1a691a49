package dev.berth.core.model;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The placeholder rule of specs and of the Java API (pure text, no I/O): {@code {lr}} is replaced by the value of
 * {@code lr}, {@code {{lr}}} stays as the literal text {@code {lr}}, and any other brace is kept as
 * written, so {@code awk '{print $1}'} needs no escaping. Optionally, {@code {}} stands for one bare
 * value (the Java API's {@code map} input). Callers say what a missing value means to them: look for
 * it with {@link #missing} first.
 */
public final class PlaceholderText {

  /** What a placeholder may be called: the rule for matrix variables. */
  public static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

  private static final Pattern PLACEHOLDER = Pattern.compile(
      "\\{\\{(" + VARIABLE.pattern() + ")\\}\\}|\\{(" + VARIABLE.pattern() + ")\\}");

  private static final Pattern WITH_BARE = Pattern.compile(
      "\\{\\{(" + VARIABLE.pattern() + ")\\}\\}|\\{(" + VARIABLE.pattern() + ")\\}|(\\{\\})");

  private PlaceholderText() {}

  /** The placeholder names {@code text} uses, in order. */
  public static Set<String> names(String text) {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = PLACEHOLDER.matcher(text);
    while (m.find()) {
      if (m.group(2) != null) {
        names.add(m.group(2));
      }
    }
    return names;
  }

  /** The first placeholder of {@code text} that {@code values} holds no value for, if any. */
  public static Optional<String> missing(String text, Map<String, String> values) {
    return names(text).stream().filter(n -> !values.containsKey(n)).findFirst();
  }

  /**
   * {@code text} with every placeholder replaced.
   *
   * @param bare the value of {@code {}}, or null when {@code {}} is kept as written
   * @throws IllegalArgumentException when a placeholder has no value; check with {@link #missing} first
   */
  public static String fill(String text, Map<String, String> values, String bare) {
    Matcher m = (bare == null ? PLACEHOLDER : WITH_BARE).matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) != null) {
        replacement = "{" + m.group(1) + "}";
      } else if (m.group(2) != null) {
        replacement = values.get(m.group(2));
        if (replacement == null) {
          throw new IllegalArgumentException("placeholder '{" + m.group(2) + "}' has no value");
        }
      } else {
        replacement = bare;
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }
}
