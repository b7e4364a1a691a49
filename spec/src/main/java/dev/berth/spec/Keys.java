package dev.berth.spec;

import dev.berth.core.settings.Suggestions;
import java.util.List;
import java.util.Map;

/** Checks the keys of a mapping the user wrote: unknown ones and required ones. */
final class Keys {

  private Keys() {}

  /**
   * Rejects any key of {@code map} not in {@code valid}. A key in {@code misplaced} gets that
   * explanation (e.g. "is a task key; set it on each task"), any other a "did you mean".
   */
  static void requireKnown(YamlNode.Mapping map, Field field, List<String> valid, Map<String, String> misplaced)
      throws SpecException {
    for (String key : map.entries().keySet()) {
      if (valid.contains(key)) {
        continue;
      }
      String explanation = misplaced.get(key);
      throw field.key(key).problem(explanation != null ? explanation : Suggestions.unknownKey(key, valid));
    }
  }

  /** The value under {@code key}; a missing or empty value is an error with {@code rule}. */
  static YamlNode required(YamlNode.Mapping map, String key, Field field, String rule) throws SpecException {
    YamlNode value = map.get(key);
    if (value == null || (value instanceof YamlNode.Scalar s && s.isNull())) {
      throw field.key(key).problem(rule);
    }
    return value;
  }

  /** The node as a mapping, or an error saying what it should hold. */
  static YamlNode.Mapping mapping(YamlNode node, Field field, String what) throws SpecException {
    if (node instanceof YamlNode.Mapping m) {
      return m;
    }
    throw field.problem("must be a mapping of " + what + " but was " + node.describe());
  }
}
