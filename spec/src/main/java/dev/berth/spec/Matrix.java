package dev.berth.spec;

import dev.berth.core.model.Combinations;
import dev.berth.core.model.TaskKeys;
import java.util.List;
import java.util.Map;

/**
 * A task's {@code matrix}: variables, each with the values it takes, in the order written.
 *
 * @param variables variable name to its values, each written as in the YAML
 */
record Matrix(Map<String, List<String>> variables) {

  /** The matrix of a task that has none: one combination with no variables. */
  static final Matrix NONE = new Matrix(Map.of());

  /** Parses {@code matrix: {name: [values...], ...}}; no variable may take a built-in placeholder's name. */
  static Matrix parse(YamlNode node, Field field) throws SpecException {
    Map<String, List<String>> variables = field.read(TaskKeys.MATRIX::parse, node);
    for (String name : variables.keySet()) {
      if (BuiltInPlaceholders.NAMES.contains(name)) {
        throw field.key(name).problem("'" + name + "' is a built-in placeholder; give the variable another name");
      }
    }
    return new Matrix(variables);
  }

  /** How many combinations there are, counted without making them: one for a task without a matrix. */
  long size() {
    long size = 1;
    for (List<String> values : variables.values()) {
      size *= values.size();
    }
    return size;
  }

  /**
   * Every combination of values, in the order the variables are written, the last varying
   * fastest: {lr=0.1, seed=1}, {lr=0.1, seed=2}, {lr=0.01, seed=1}, ...
   */
  List<Map<String, String>> combinations() {
    return Combinations.of(variables);
  }
}
