package dev.berth.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An {@code after:} or {@code follow:} value as written: task ids, globs such as {@code train-*}
 * and {@code group:NAME} references (possibly with matrix placeholders), plus ipyparallel's
 * options. Resolved into task ids by {@link DependencyResolver} once every task is known.
 *
 * <p>The forms: a single id, a list ({@code [prep, "train-*"]}: all of them must succeed), or a
 * mapping {@code {tasks: [a, b], all: false, success: true, failure: false}}.
 *
 * @param patterns what the tasks are named by
 * @param all whether all (true) or any one (false) of them must satisfy the edge
 * @param success whether a task that succeeded satisfies it
 * @param failure whether a task that failed satisfies it
 * @param field where it was written
 */
record DependencyRef(List<Template> patterns, boolean all, boolean success, boolean failure, Field field) {

  private static final List<String> KEYS = List.of("tasks", "all", "success", "failure");

  /** Parses any of the three forms. */
  static DependencyRef parse(YamlNode node, Field field) throws SpecException {
    if (node instanceof YamlNode.Mapping map) {
      Keys.requireKnown(map, field, KEYS, Map.of());
      List<Template> patterns = patterns(
          Keys.required(map, "tasks", field, "is required: the tasks depended on, e.g. tasks: [a, b]"),
          field.key("tasks"));
      boolean all = flag(map, "all", true, field);
      boolean success = flag(map, "success", true, field);
      boolean failure = flag(map, "failure", false, field);
      if (!success && !failure) {
        throw field.problem("success: false with failure: false can never be met; set one of them to true");
      }
      return new DependencyRef(patterns, all, success, failure, field);
    }
    return new DependencyRef(patterns(node, field), true, true, false, field);
  }

  private static List<Template> patterns(YamlNode node, Field field) throws SpecException {
    String rule = "must be a task id, a glob such as \"train-*\", group:NAME, or a list of them, but was ";
    List<Template> patterns = new ArrayList<>();
    if (node instanceof YamlNode.Scalar s && !s.isNull()) {
      patterns.add(new Template(s.text(), field));
    } else if (node instanceof YamlNode.Sequence list && !list.items().isEmpty()) {
      for (int i = 0; i < list.items().size(); i++) {
        YamlNode item = list.items().get(i);
        if (!(item instanceof YamlNode.Scalar s) || s.isNull()) {
          throw field.index(i).problem(rule + item.describe());
        }
        patterns.add(new Template(s.text(), field.index(i)));
      }
    } else {
      throw field.problem(rule + node.describe());
    }
    return List.copyOf(patterns);
  }

  private static boolean flag(YamlNode.Mapping map, String key, boolean fallback, Field field) throws SpecException {
    YamlNode node = map.get(key);
    if (node == null) {
      return fallback;
    }
    return Values.BOOLEAN.parse(node, field.key(key));
  }
}
