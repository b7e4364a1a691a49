package dev.berth.core.scheduling;

import dev.berth.core.model.TaskId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The order in which tasks are cancelled: dependants before their parents (reverse topological order of
 * the {@code after} and {@code follow} edges). A cluster that holds a dependant for its parent with a
 * job dependency may count a parent cancelled first as done with it and start the dependant; cancelling
 * the dependant first leaves it nothing to start. Pure.
 */
public final class DependantsFirst {

  private DependantsFirst() {}

  /**
   * {@code tasks} in waves: each wave holds tasks none of which depends on another of the same wave, and
   * comes before the waves of the tasks it depends on; within a wave, in id order.
   */
  public static List<List<TaskId>> waves(RunState state, Collection<TaskId> tasks) {
    Map<TaskId, Integer> depths = new HashMap<>();
    TreeMap<Integer, TreeSet<TaskId>> byDepth = new TreeMap<>();
    for (TaskId id : tasks) {
      byDepth.computeIfAbsent(depth(state, id, depths), d -> new TreeSet<>()).add(id);
    }
    List<List<TaskId>> waves = new ArrayList<>();
    byDepth.descendingMap().values().forEach(wave -> waves.add(List.copyOf(wave)));
    return List.copyOf(waves);
  }

  /** {@code tasks} dependants first: the {@link #waves} one after the other. */
  public static List<TaskId> order(RunState state, Collection<TaskId> tasks) {
    List<TaskId> ordered = new ArrayList<>();
    waves(state, tasks).forEach(ordered::addAll);
    return List.copyOf(ordered);
  }

  /** The longest chain of edges from {@code id} up to a task without parents (edges have no cycles). */
  private static int depth(RunState state, TaskId id, Map<TaskId, Integer> depths) {
    Integer known = depths.get(id);
    if (known != null) {
      return known;
    }
    int depth = 0;
    depths.put(id, 0); // an id named twice on one path cannot recurse forever
    TaskRecord r;
    try {
      r = state.task(id);
    } catch (IllegalArgumentException unknown) {
      return 0;
    }
    for (TaskId parent : r.spec().dependsOn()) {
      depth = Math.max(depth, depth(state, parent, depths) + 1);
    }
    depths.put(id, depth);
    return depth;
  }
}
