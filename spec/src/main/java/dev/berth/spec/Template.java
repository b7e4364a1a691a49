package dev.berth.spec;

import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.PlaceholderText;
import dev.berth.core.settings.Suggestions;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
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
  static final Pattern VARIABLE = PlaceholderText.VARIABLE;

  /** The variables this text names. */
  Set<String> variables() {
    return PlaceholderText.names(text);
  }

  /**
   * The text with every placeholder replaced.
   *
   * @throws SpecException when a placeholder names a variable {@code values} does not hold
   */
  String fill(Map<String, String> values) throws SpecException {
    try {
      return filler(values).apply(text);
    } catch (InvalidValue e) {
      throw field.problem(e);
    }
  }

  /** Fills the placeholders of any text with {@code values}; a missing one is an {@link InvalidValue}. */
  static UnaryOperator<String> filler(Map<String, String> values) {
    return text -> {
      if (text.indexOf('{') < 0) {
        return text; // nothing to fill: the same string, shared by every task of a sweep
      }
      Optional<String> missing = PlaceholderText.missing(text, values);
      if (missing.isPresent()) {
        throw new InvalidValue(unknown(missing.get(), values.keySet()));
      }
      return PlaceholderText.fill(text, values, null);
    };
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
