package dev.berth.spec;

import dev.berth.core.model.Reporting;
import dev.berth.core.settings.Parsers;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Reads the spec's {@code objective: {key, goal}} and {@code notify: {webhook, on}}. */
final class ReportingReader {

  private static final List<String> EVENTS = List.of("run-end", "task-failed", "group-end");

  private ReportingReader() {}

  static Reporting read(YamlNode objective, YamlNode notify, Field root) throws SpecException {
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
    Optional<String> url = Optional.empty();
    List<String> events = new ArrayList<>();
    if (notify != null) {
      Field f = root.key("notify");
      YamlNode.Mapping map = Keys.mapping(notify, f, "notifications, e.g. {webhook: https://..., on: [run-end]}");
      Keys.requireKnown(map, f, List.of("webhook", "on"), Map.of("smtp", "mail settings go under config: smtp"));
      YamlNode hook = map.get("webhook");
      if (hook != null) {
        String text = f.key("webhook").read(Parsers.TEXT, hook);
        URI uri;
        try {
          uri = URI.create(text);
        } catch (IllegalArgumentException e) {
          throw f.key("webhook").problem("'" + text + "' is not a URL");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
          throw f.key("webhook").problem("'" + text + "' must be an http:// or https:// URL");
        }
        url = Optional.of(text);
      }
      YamlNode on = map.get("on");
      if (on != null) {
        for (String e : f.key("on").read(Parsers.TEXT_LIST, on)) {
          if (!EVENTS.contains(e)) {
            throw f.key("on").problem("'" + e + "' is not an event; use " + String.join(", ", EVENTS));
          }
          events.add(e);
        }
      }
    }
    return new Reporting(key, maximize, url, events);
  }
}
