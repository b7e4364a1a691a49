package dev.berth.client;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.List;

/** Makes groups: named sets of tasks that run in parallel, with group-level defaults. */
public final class Groups {

  private Groups() {}

  /**
   * An empty group to fill with {@link GroupBuilder#task} and {@link GroupBuilder#matrix}, and to
   * give defaults for its tasks ({@code memory}, {@code gpuMemory}, {@code cpus}, ...).
   *
   * @throws IllegalArgumentException when the name is not letters, digits and {@code . _ -}
   */
  public static GroupBuilder builder(String name) {
    return new GroupBuilder(name);
  }

  /** A group of these tasks (copied); see {@link #builder(String)}. */
  public static GroupBuilder of(String name, TaskBuilder... tasks) {
    return builder(name).tasks(tasks);
  }

  /**
   * A group of tasks already in the core model's form, moved into the group {@code name} whatever
   * group they named: for specs built elsewhere (a YAML spec, {@link TaskBuilder#toSpec}).
   *
   * @throws IllegalArgumentException when the name is invalid or an id repeats
   */
  public static GroupSpec ofSpecs(String name, TaskSpec... tasks) {
    List<TaskSpec> moved = new ArrayList<>();
    for (TaskSpec t : tasks) {
      moved.add(t.inGroup(name));
    }
    return new GroupSpec(name, moved);
  }


}
