package dev.berth.client;

import dev.berth.core.model.Combinations;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Names;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.MatrixIds;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A named group of tasks that run in parallel, with group-level defaults for its tasks: every
 * {@link TaskSettings} key set here applies to each task that does not set it ({@code env} is
 * merged), as a group's keys do in a spec. Made by {@link Groups#builder} or {@link Groups#of}.
 * Tasks are copied when added, so changing a builder afterwards does not change the group.
 */
public final class GroupBuilder extends TaskSettings<GroupBuilder> {

  private final String name;
  private final List<TaskBuilder> tasks = new ArrayList<>();

  GroupBuilder(String name) {
    checkName(name);
    this.name = name;
  }

  static void checkName(String name) {
    Names.check("group", name);
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
    return GroupDraft.resolve(List.of(pending()), Map.of(), config, "group", false).get(0);
  }

  /** A snapshot of the name, defaults and tasks. */
  GroupDraft pending() {
    return new GroupDraft(name, values, tasks());
  }

  /** The tasks of a matrix, in matrix order. */
  static List<TaskBuilder> expand(TaskTemplate template, Map<String, ? extends List<?>> matrix) {
    Map<String, List<String>> variables = variables(matrix);
    Map<String, Map<String, String>> seen = new LinkedHashMap<>();
    List<TaskBuilder> out = new ArrayList<>();
    for (Map<String, String> c : Combinations.of(variables)) {
      TaskBuilder t = template.expand(c);
      Map<String, String> earlier = seen.putIfAbsent(t.id(), c);
      if (earlier != null) {
        throw new IllegalArgumentException("template " + MatrixIds.sameId(template.id(), variables, t.id(), earlier, c));
      }
      out.add(t);
    }
    return out;
  }

  /** The matrix with its values as placeholder text, checked as a spec's {@code matrix} is. */
  static Map<String, List<String>> variables(Map<String, ? extends List<?>> matrix) {
    Map<String, Object> written = new LinkedHashMap<>();
    matrix.forEach((name, values) -> written.put(name, values == null ? null : values.stream().map(Placeholders::text).toList()));
    try {
      return TaskKeys.MATRIX.parse(written);
    } catch (InvalidValue e) {
      throw new IllegalArgumentException(TaskSettings.message(e.under(TaskKeys.MATRIX.key())), e);
    }
  }
}
