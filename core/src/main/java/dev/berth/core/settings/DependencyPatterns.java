package dev.berth.core.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * An {@code after} or {@code follow} value before it is resolved: task ids, globs such as
 * {@code train-*} and {@code group:NAME} (possibly with placeholders), plus ipyparallel's options.
 * Written as one entry, a list ({@code [prep, "train-*"]}: all of them must succeed), or a mapping
 * {@code {tasks: [a, b], all: false, success: true, failure: false}}.
 *
 * @param patterns what the tasks are named by, at least one, none blank
 * @param all whether all (true) or any one (false) of them must satisfy the edge
 * @param success whether a task that succeeded satisfies it
 * @param failure whether a task that failed, timed out or became unreachable satisfies it
 * @param where where each pattern was written inside the value, e.g. {@code [1]} or {@code tasks[1]}
 */
public record DependencyPatterns(List<String> patterns, boolean all, boolean success, boolean failure,
    List<String> where) {

  private static final List<String> KEYS = List.of("tasks", "all", "success", "failure");
  private static final String FORMS = "must be a task id, a glob such as \"train-*\", group:NAME, or a list of them,";

  /**
   * Validates.
   *
   * @throws InvalidValue when no task is named, an entry is blank, or neither success nor failure is set
   */
  public DependencyPatterns {
    patterns = List.copyOf(patterns);
    where = List.copyOf(where);
    if (patterns.isEmpty()) {
      throw new InvalidValue("a dependency must name at least one task, glob or group:NAME");
    }
    for (int i = 0; i < patterns.size(); i++) {
      if (patterns.get(i).isBlank()) {
        throw new InvalidValue(null, where.get(i), "a dependency entry must not be blank");
      }
    }
    if (!success && !failure) {
      throw new InvalidValue("success: false with failure: false can never be met; set one of them to true");
    }
  }

  /** Parses any of the three forms. */
  public static DependencyPatterns parse(Object written) {
    if (written instanceof Map<?, ?> raw) {
      @SuppressWarnings("unchecked") // a mapping as written has text keys
      Map<String, ?> map = (Map<String, ?>) raw;
      for (String key : map.keySet()) {
        if (!KEYS.contains(key)) {
          throw new InvalidValue(null, key, Suggestions.unknownKey(key, KEYS));
        }
      }
      if (map.get("tasks") == null) {
        throw new InvalidValue(null, "tasks", "is required: the tasks depended on, e.g. tasks: [a, b]");
      }
      DependencyPatterns tasks;
      try {
        tasks = listed(map.get("tasks"));
      } catch (InvalidValue e) {
        throw e.under("tasks");
      }
      return new DependencyPatterns(tasks.patterns, flag(map, "all", true), flag(map, "success", true),
          flag(map, "failure", false), tasks.where.stream().map(w -> InvalidValue.join("tasks", w)).toList());
    }
    return listed(written);
  }

  /** The same edge with each pattern passed through {@code fill}, e.g. to fill its placeholders. */
  public DependencyPatterns filled(UnaryOperator<String> fill) {
    List<String> filled = new ArrayList<>();
    for (int i = 0; i < patterns.size(); i++) {
      try {
        filled.add(fill.apply(patterns.get(i)));
      } catch (InvalidValue e) {
        throw new InvalidValue(e.task(), InvalidValue.join(where.get(i), e.path()), e.rule());
      }
    }
    return new DependencyPatterns(filled, all, success, failure, where);
  }

  private static DependencyPatterns listed(Object written) {
    List<String> patterns = new ArrayList<>();
    List<String> where = new ArrayList<>();
    if (written instanceof List<?> list && !list.isEmpty()) {
      for (int i = 0; i < list.size(); i++) {
        if (!(list.get(i) instanceof String s)) {
          throw new InvalidValue(null, "[" + i + "]", FORMS + " but was " + Parsers.describe(list.get(i)));
        }
        patterns.add(s);
        where.add("[" + i + "]");
      }
    } else if (written instanceof String s) {
      patterns.add(s);
      where.add("");
    } else {
      throw new InvalidValue(FORMS + " but was " + Parsers.describe(written));
    }
    return new DependencyPatterns(patterns, true, true, false, where);
  }

  private static boolean flag(Map<String, ?> map, String key, boolean fallback) {
    return map.containsKey(key) ? Parsers.entry(Parsers.BOOLEAN, map, key) : fallback;
  }
}
