package dev.berth.spec;

import dev.berth.core.model.Reporting;
import dev.berth.core.settings.Parsers;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Reads the spec's {@code objective: {key, goal}}. */
final class ReportingReader {

  private ReportingReader() {}

  static Reporting read(YamlNode objective, Field root) throws SpecException {
    Optional<String> key = Optional.empty();
    boolean maximize = true;
    if (objective != null) {
      Field f = root.key("objective");
      YamlNode.Mapping map = Keys.mapping(objective, f, "the result key to rank by and its goal, e.g."
          + " {key: val_acc, goal: max}");
      Keys.requireKnown(map, f, List.of("key", "goal"), Map.of());
      key = Optional.of(f.key("key").read(Parsers.TEXT, Keys.required(map, "key", f, "is required, e.g. key: val_acc")));
      YamlNode goal = map.get("goal");
      if (goal != null) {
        String g = f.key("goal").read(Parsers.TEXT, goal).strip().toLowerCase(Locale.ROOT);
        if (!g.equals("max") && !g.equals("min")) {
          throw f.key("goal").problem("must be max or min but was " + goal.describe());
        }
        maximize = g.equals("max");
      }
    }
    return new Reporting(key, maximize);
  }
}
