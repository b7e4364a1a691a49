package dev.berth.report;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Which result ranks a sweep, and in which direction: written in a spec as {@code {key: val_acc, goal: max}}.
 *
 * @param key the result key, as written in the tasks' {@code result.json}
 * @param goal whether larger or smaller values are better
 */
public record Objective(String key, Goal goal) {

  /** Whether larger or smaller values of the key are better. */
  public enum Goal {
    /** Larger is better, e.g. accuracy. */
    MAX,
    /** Smaller is better, e.g. loss. */
    MIN
  }

  /** Checks both parts. */
  public Objective {
    Objects.requireNonNull(goal, "goal");
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("objective: 'key' names the result to rank by, e.g. {key: val_acc, goal: max}");
    }
  }

  /** Larger values of {@code key} first. */
  public static Objective max(String key) {
    return new Objective(key, Goal.MAX);
  }

  /** Smaller values of {@code key} first. */
  public static Objective min(String key) {
    return new Objective(key, Goal.MIN);
  }

  /**
   * Parses the spec form {@code {key: val_acc, goal: max}}; the braces, quotes around values and the case of
   * the goal are optional.
   *
   * @throws IllegalArgumentException in one line naming the rule
   */
  public static Objective parse(String text) {
    String t = text == null ? "" : text.strip();
    if (t.startsWith("{") != t.endsWith("}")) {
      throw new IllegalArgumentException("objective: unbalanced braces in '" + t + "'; write {key: val_acc, goal: max}");
    }
    if (t.startsWith("{")) {
      t = t.substring(1, t.length() - 1);
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : t.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      int colon = part.indexOf(':');
      if (colon < 0) {
        throw new IllegalArgumentException(
            "objective: '" + part.strip() + "' is not 'name: value'; write {key: val_acc, goal: max}");
      }
      fields.put(part.substring(0, colon).strip(), unquote(part.substring(colon + 1).strip()));
    }
    return fromMap(fields);
  }

  /**
   * Builds an objective from a map read from YAML or JSON, with the keys {@code key} and {@code goal}.
   *
   * @throws IllegalArgumentException in one line naming the rule
   */
  public static Objective fromMap(Map<String, ?> fields) {
    for (String name : fields.keySet()) {
      if (!name.equals("key") && !name.equals("goal")) {
        throw new IllegalArgumentException("objective: unknown field '" + name + "'; the fields are key and goal");
      }
    }
    Object key = fields.get("key");
    Object goal = fields.get("goal");
    if (key == null || key.toString().isBlank()) {
      throw new IllegalArgumentException("objective: 'key' is required, e.g. {key: val_acc, goal: max}");
    }
    if (goal == null) {
      throw new IllegalArgumentException("objective: 'goal' is required: max or min");
    }
    String g = goal.toString().strip().toLowerCase(Locale.ROOT);
    if (!g.equals("max") && !g.equals("min")) {
      throw new IllegalArgumentException("objective: 'goal' must be max or min, not '" + goal + "'");
    }
    return new Objective(key.toString().strip(), g.equals("max") ? Goal.MAX : Goal.MIN);
  }

  /** The spec form, e.g. {@code {key: val_acc, goal: max}}. */
  @Override
  public String toString() {
    return "{key: " + key + ", goal: " + goal.name().toLowerCase(Locale.ROOT) + "}";
  }

  private static String unquote(String v) {
    if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
      return v.substring(1, v.length() - 1);
    }
    return v;
  }
}
