package dev.berth.client;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A named group of tasks that run in parallel, with group-level defaults for its tasks: every
 * {@link TaskSettings} key set here applies to each task that does not set it ({@code env} is
 * merged), as a group's keys do in a spec. Made by {@link Groups#builder} or {@link Groups#of}.
 * Tasks are copied when added, so changing a builder afterwards does not change the group.
 */
public final class GroupBuilder extends TaskSettings<GroupBuilder> {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  /** Most tasks one matrix may expand to, as in a spec. */
  static final long MAX_COMBINATIONS = 100_000;

  private final String name;
  private final List<TaskBuilder> tasks = new ArrayList<>();

  GroupBuilder(String name) {
    checkName(name);
    this.name = name;
  }

  static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
      throw new IllegalArgumentException("group name '" + name + "' must match [A-Za-z0-9._-]+ (and not be . or ..)");
    }
  }

  /** The group's name, also the name of its folder under the session's workdir. */
  public String name() {
    return name;
  }

  /** Adds a copy of the task. */
  public GroupBuilder task(TaskBuilder task) {
    tasks.add(task.copy());
    return this;
  }

  /** Adds copies of the tasks, in order. */
  public GroupBuilder tasks(TaskBuilder... tasks) {
    for (TaskBuilder t : tasks) {
      task(t);
    }
    return this;
  }

  /** Adds copies of the tasks, in order. */
  public GroupBuilder tasks(Collection<TaskBuilder> tasks) {
    tasks.forEach(this::task);
    return this;
  }

  /**
   * Adds one task per combination of the matrix values, as a spec task with {@code matrix}: the
   * variables in the map's iteration order (use a {@link LinkedHashMap}), the last varying
   * fastest; each task's parameters are its combination. Values become text as
   * {@link Tasks} describes.
   *
   * @throws IllegalArgumentException when a variable name is invalid, a list is empty or repeats a
   *     value, the matrix expands to more than 100,000 tasks, or two combinations give the same id
   */
  public GroupBuilder matrix(TaskTemplate template, Map<String, ? extends List<?>> matrix) {
    for (TaskBuilder t : expand(template, matrix)) {
      tasks.add(t);
    }
    return this;
  }

  /** The tasks added so far, as copies, in order. */
  public List<TaskBuilder> tasks() {
    return tasks.stream().map(TaskBuilder::copy).toList();
  }

  /**
   * The group as the core model has it, resolving unset keys with {@code config}; dependencies may
   * only name tasks of this group (a session or a {@link RunBuilder} resolves them across groups).
   *
   * @throws IllegalArgumentException when the group is empty, an id repeats, a dependency names no
   *     task, or a value breaks a rule of the model
   */
  public GroupSpec build(SchedulerConfig config) {
    return Resolver.resolve(List.of(pending()), new LinkedHashMap<>(), config, "group").get(0);
  }

  /** What the resolver needs: a snapshot of the name, defaults and tasks. */
  Resolver.Pending pending() {
    return new Resolver.Pending(name, values.copy(), tasks());
  }

  /** The tasks of a matrix, in matrix order. */
  static List<TaskBuilder> expand(TaskTemplate template, Map<String, ? extends List<?>> matrix) {
    List<Map<String, String>> combinations = combinations(matrix);
    Map<String, Map<String, String>> seen = new LinkedHashMap<>();
    List<TaskBuilder> out = new ArrayList<>();
    for (Map<String, String> c : combinations) {
      TaskBuilder t = template.expand(c);
      Map<String, String> earlier = seen.putIfAbsent(t.id(), c);
      if (earlier != null) {
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, ? extends List<?>> e : matrix.entrySet()) {
          if (e.getValue().size() > 1 && !Placeholders.names(template.id()).contains(e.getKey())) {
            missing.add("{" + e.getKey() + "}");
          }
        }
        throw new IllegalArgumentException("template '" + template.id() + "' gives the same id '" + t.id() + "' for ("
            + describe(earlier) + ") and (" + describe(c) + "); "
            + (missing.isEmpty() ? "make the id tell the combinations apart" : "add " + String.join(", ", missing) + " to the id"));
      }
      out.add(t);
    }
    return out;
  }

  /** Every combination, the variables in iteration order and the last varying fastest. */
  static List<Map<String, String>> combinations(Map<String, ? extends List<?>> matrix) {
    if (matrix.isEmpty()) {
      throw new IllegalArgumentException("a matrix must name at least one variable, e.g. {lr: [0.1, 0.01]}");
    }
    Map<String, List<String>> variables = new LinkedHashMap<>();
    long count = 1;
    for (Map.Entry<String, ? extends List<?>> e : matrix.entrySet()) {
      String name = e.getKey();
      if (name == null || !Placeholders.VARIABLE.matcher(name).matches()) {
        throw new IllegalArgumentException("'" + name + "' is not a valid variable name; use letters, digits, '_' and '-',"
            + " starting with a letter or '_'");
      }
      List<?> raw = e.getValue();
      if (raw == null || raw.isEmpty()) {
        throw new IllegalArgumentException("matrix variable '" + name + "' must list at least one value");
      }
      Set<String> texts = new LinkedHashSet<>();
      for (Object v : raw) {
        String text = Placeholders.text(v);
        if (!texts.add(text)) {
          throw new IllegalArgumentException("matrix variable '" + name + "': '" + text + "' is listed twice; list each value once");
        }
      }
      variables.put(name, List.copyOf(texts));
      count *= texts.size();
      if (count > MAX_COMBINATIONS) {
        throw new IllegalArgumentException("the matrix expands to more than " + MAX_COMBINATIONS + " tasks; split it into smaller matrices");
      }
    }
    return dev.berth.core.model.Combinations.of(variables);
  }

  private static String describe(Map<String, String> values) {
    return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
  }
}
