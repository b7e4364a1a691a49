package dev.berth.core.model;

import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.PlaceholderText;
import dev.berth.core.settings.ValueParser;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/** The parsers of the task keys whose values have a shape of their own: command, matrix, env, java. */
final class TaskValueParsers {

  /** Most tasks one matrix may expand to; a typo in a large matrix should not exhaust memory. */
  static final long MAX_COMBINATIONS = 100_000;

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern CLASS_NAME_TEXT =
      Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");

  private TaskValueParsers() {}

  /** An argument vector: a non-empty list of single values, the first naming the program. */
  static final ValueParser<List<String>> COMMAND = value -> {
    if (value instanceof String s) {
      throw new InvalidValue("must be a list of arguments, not the single string '" + s + "'; write e.g."
          + " [python3, train.py, --lr, \"0.1\"], or [sh, -c, \"...\"] to run it through a shell");
    }
    if (!(value instanceof List<?> list)) {
      throw new InvalidValue("must be a list of arguments, e.g. [python3, train.py], but was " + Parsers.describe(value));
    }
    if (list.isEmpty()) {
      throw new InvalidValue("must not be empty: the command must name a program, e.g. [python3, train.py]");
    }
    List<String> argv = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof String s)) {
        throw new InvalidValue(null, "[" + i + "]", "must be a single argument but was "
            + Parsers.describe(list.get(i)) + "; quote it if it is text");
      }
      argv.add(s);
    }
    if (argv.get(0).isBlank()) {
      throw new InvalidValue(null, "[0]", "the program to run must not be empty");
    }
    return List.copyOf(argv);
  };

  /** Variable names to the values they take, each written as text, in the order written. */
  static final ValueParser<Map<String, List<String>>> MATRIX = value -> {
    Map<String, ?> map = mapping(value, "variable names to lists of values, e.g. {lr: [0.1, 0.01]}");
    if (map.isEmpty()) {
      throw new InvalidValue("must name at least one variable, e.g. {lr: [0.1, 0.01]}");
    }
    Map<String, List<String>> variables = new LinkedHashMap<>();
    long combinations = 1;
    for (Map.Entry<String, ?> e : map.entrySet()) {
      if (e.getKey() == null || !PlaceholderText.VARIABLE.matcher(e.getKey()).matches()) {
        throw new InvalidValue(null, String.valueOf(e.getKey()), "'" + e.getKey() + "' is not a valid variable name;"
            + " use letters, digits, '_' and '-', starting with a letter or '_'");
      }
      try {
        variables.put(e.getKey(), values(e.getValue()));
      } catch (InvalidValue problem) {
        throw problem.under(e.getKey());
      }
      combinations *= variables.get(e.getKey()).size();
      if (combinations > MAX_COMBINATIONS) {
        throw new InvalidValue("expands to more than " + MAX_COMBINATIONS + " tasks; split it into smaller matrices");
      }
    }
    return Collections.unmodifiableMap(variables);
  };

  /** A Java class name, or text with placeholders that will make one. */
  static final ValueParser<String> CLASS_NAME = value -> {
    String name = Parsers.TEXT.parse(value);
    if (!CLASS_NAME_TEXT.matcher(name).matches() && !name.contains("{")) {
      throw new InvalidValue("'" + name + "' is not a Java class name, e.g. com.example.TrainTask");
    }
    return name;
  };

  /** A Python function as {@code package.module:function}, or text with placeholders that will make one. */
  static final ValueParser<String> FUNCTION = value -> {
    String name = Parsers.TEXT.parse(value);
    if (!name.matches("[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_.]*") && !name.contains("{")) {
      throw new InvalidValue("'" + name + "' is not a function; write package.module:function, e.g. train.tasks:fit");
    }
    return name;
  };

  /** Any mapping, kept as written. */
  static final ValueParser<Map<String, ?>> MAPPING = value -> mapping(value, "names to values, e.g. {epochs: 3}");

  /** Environment variable names to single values. */
  static final ValueParser<Map<String, String>> ENV = value -> {
    Map<String, ?> map = mapping(value, "variable names to values, e.g. {SEED: \"1\"}");
    Map<String, String> vars = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : map.entrySet()) {
      String name = e.getKey();
      if (name == null || !ENV_NAME.matcher(name).matches()) {
        throw new InvalidValue(null, String.valueOf(name), "'" + name + "' is not a valid environment variable name;"
            + " use letters, digits and '_', not starting with a digit");
      }
      if (!(e.getValue() instanceof String text)) {
        throw new InvalidValue(null, name, "must be a single value but was " + Parsers.describe(e.getValue())
            + "; write '' for an empty value");
      }
      vars.put(name, text);
    }
    return Collections.unmodifiableMap(vars);
  };

  /**
   * Options of an adapter as written: names to single values or lists of them, each value kept as text
   * (a number or true written bare reads as its text) for the adapter's own parsers.
   */
  static final ValueParser<Map<String, ?>> OPTIONS = value -> {
    Map<String, ?> map = mapping(value, "option names to values, e.g. {partition: gpu, time: 2h}");
    Map<String, Object> options = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : map.entrySet()) {
      String name = String.valueOf(e.getKey());
      if (e.getValue() instanceof List<?> list) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
          items.add(optionText(list.get(i), name + "[" + i + "]"));
        }
        options.put(name, List.copyOf(items));
      } else {
        options.put(name, optionText(e.getValue(), name));
      }
    }
    return Collections.unmodifiableMap(options);
  };

  /** A group's options with its task's added over them. */
  static Map<String, ?> unionOfOptions(Map<String, ?> group, Map<String, ?> task) {
    Map<String, Object> merged = new LinkedHashMap<>(group);
    merged.putAll(task);
    return Collections.unmodifiableMap(merged);
  }

  /** Options in the one form a task holds: sorted by name. */
  static Map<String, ?> sortedOptions(Map<String, ?> options) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(options));
  }

  private static String optionText(Object value, String where) {
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return String.valueOf(value);
    }
    throw new InvalidValue(null, where, "must be a single value or a list of them but was " + Parsers.describe(value));
  }

  /** A group's variables with its task's added over them. */
  static Map<String, String> union(Map<String, String> group, Map<String, String> task) {
    Map<String, String> merged = new LinkedHashMap<>(group);
    merged.putAll(task);
    return Collections.unmodifiableMap(merged);
  }

  /** The variables with their values' placeholders filled. */
  static Map<String, String> fillEnv(Map<String, String> vars, UnaryOperator<String> fill) {
    Map<String, String> filled = new LinkedHashMap<>();
    boolean changed = false;
    for (Map.Entry<String, String> e : vars.entrySet()) {
      try {
        String value = fill.apply(e.getValue());
        changed |= value != e.getValue();
        filled.put(e.getKey(), value);
      } catch (InvalidValue problem) {
        throw problem.under(e.getKey());
      }
    }
    return changed ? Collections.unmodifiableMap(filled) : vars; // unchanged: the caller keeps what it has
  }

  private static List<String> values(Object value) {
    if (!(value instanceof List<?> list)) {
      throw new InvalidValue("must be a list of values, e.g. [0.1, 0.01], but was " + Parsers.describe(value));
    }
    if (list.isEmpty()) {
      throw new InvalidValue("must list at least one value");
    }
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof String text)) {
        throw new InvalidValue(null, "[" + i + "]", "must be a single value such as 0.1 or adam but was "
            + Parsers.describe(list.get(i)));
      }
      if (!seen.add(text)) {
        throw new InvalidValue(null, "[" + i + "]", "'" + text + "' is listed twice; list each value once");
      }
    }
    return List.copyOf(seen);
  }

  @SuppressWarnings("unchecked") // a mapping as written has text keys
  private static Map<String, ?> mapping(Object value, String what) {
    if (value instanceof Map<?, ?> map) {
      return (Map<String, ?>) map;
    }
    throw new InvalidValue("must be a mapping of " + what + " but was " + Parsers.describe(value));
  }
}
