package dev.berth.spec;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text that may name matrix variables: {@code {lr}} is replaced by the value of {@code lr};
 * {@code {{lr}}} stays as the literal text {@code {lr}}. Any other brace is kept as written, so
 * {@code awk '{print $1}'} needs no escaping.
 *
 * @param text the text as written
 * @param field where it was written, for errors
 */
record Template(String text, Field field) {

  /** What a matrix variable may be called. */
  static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

  private static final Pattern PLACEHOLDER = Pattern.compile(
      "\\{\\{(" + VARIABLE.pattern() + ")\\}\\}|\\{(" + VARIABLE.pattern() + ")\\}");

  /** The variables this text names. */
  Set<String> variables() {
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
   * The text with every placeholder replaced.
   *
   * @throws SpecException when a placeholder names a variable {@code values} does not hold
   */
  String fill(Map<String, String> values) throws SpecException {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) != null) {
        replacement = "{" + m.group(1) + "}";
      } else {
        replacement = values.get(m.group(2));
        if (replacement == null) {
          throw field.problem(unknown(m.group(2), values.keySet()));
        }
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String unknown(String name, Set<String> known) {
    Set<String> variables = new LinkedHashSet<>(known);
    variables.removeAll(BuiltInPlaceholders.NAMES);
    String closest = Suggestions.nearest(name, known).map(s -> " did you mean '{" + s + "}'? or").orElse("");
    String keep = " write '{{" + name + "}}' to keep the braces";
    if (variables.isEmpty()) {
      return "placeholder '{" + name + "}' has no value because the task has no matrix;" + closest + keep;
    }
    return "placeholder '{" + name + "}' is not a matrix variable (the matrix has "
        + String.join(", ", variables) + ");" + closest + keep;
  }
}
