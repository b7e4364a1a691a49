package dev.berth.spec;

import dev.berth.core.model.Combinations;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A task's {@code matrix}: variables, each with the values it takes, in the order written.
 *
 * @param variables variable name to its values, each written as in the YAML
 */
record Matrix(Map<String, List<String>> variables) {

  /** The matrix of a task that has none: one combination with no variables. */
  static final Matrix NONE = new Matrix(Map.of());

  /** Most tasks one matrix may expand to; a typo in a large matrix should not exhaust memory. */
  static final long MAX_COMBINATIONS = 100_000;

  /** Parses {@code matrix: {name: [values...], ...}}. */
  static Matrix parse(YamlNode node, Field field) throws SpecException {
    YamlNode.Mapping map = Keys.mapping(node, field, "variable names to lists of values, e.g. {lr: [0.1, 0.01]}");
    if (map.entries().isEmpty()) {
      throw field.problem("must name at least one variable, e.g. {lr: [0.1, 0.01]}");
    }
    Map<String, List<String>> variables = new LinkedHashMap<>();
    long combinations = 1;
    for (Map.Entry<String, YamlNode> e : map.entries().entrySet()) {
      Field f = field.key(e.getKey());
      if (!Template.VARIABLE.matcher(e.getKey()).matches()) {
        throw f.problem("'" + e.getKey() + "' is not a valid variable name; use letters, digits, '_' and '-',"
            + " starting with a letter or '_'");
      }
      if (BuiltInPlaceholders.NAMES.contains(e.getKey())) {
        throw f.problem("'" + e.getKey() + "' is a built-in placeholder; give the variable another name");
      }
      List<String> values = values(e.getValue(), f);
      variables.put(e.getKey(), values);
      combinations *= values.size();
      if (combinations > MAX_COMBINATIONS) {
        throw field.problem("expands to more than " + MAX_COMBINATIONS + " tasks; split it into smaller matrices");
      }
    }
    return new Matrix(Collections.unmodifiableMap(variables));
  }

  private static List<String> values(YamlNode node, Field field) throws SpecException {
    if (!(node instanceof YamlNode.Sequence list)) {
      throw field.problem("must be a list of values, e.g. [0.1, 0.01], but was " + node.describe());
    }
    if (list.items().isEmpty()) {
      throw field.problem("must list at least one value");
    }
    List<String> values = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < list.items().size(); i++) {
      YamlNode item = list.items().get(i);
      Field f = field.index(i);
      if (!(item instanceof YamlNode.Scalar s) || s.isNull()) {
        throw f.problem("must be a single value such as 0.1 or adam but was " + item.describe());
      }
      if (!seen.add(s.text())) {
        throw f.problem("'" + s.text() + "' is listed twice; list each value once");
      }
      values.add(s.text());
    }
    return List.copyOf(values);
  }

  /**
   * Every combination of values, in the order the variables are written, the last varying
   * fastest: {lr=0.1, seed=1}, {lr=0.1, seed=2}, {lr=0.01, seed=1}, ...
   */
  List<Map<String, String>> combinations() {
    return Combinations.of(variables);
  }

  /** The variables that take more than one value: each must appear in the task id. */
  List<String> varying() {
    return variables.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey).toList();
  }
}
