package dev.berth.core.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds a dependency cycle, deterministically: tasks and edges are visited in the order given.
 *
 * <p>The search walks a task's edges as lists, each list one node between the task and the tasks in
 * it, so that a list the edges of many tasks share ({@link EdgeTasks}: a glob's matches) is walked
 * once, not once per task: 4,000 tasks each after the same 4,000 are 8,000 steps, not 16 million.
 */
public final class DependencyCycles {

  private static final int ON_PATH = 1;
  private static final int DONE = 2;

  private DependencyCycles() {}

  /**
   * Returns one cycle as the list of tasks along it, first task repeated at the end
   * ({@code [a, b, c, a]}), or empty when the graph has none.
   *
   * @param parents for each task in a fixed order, the tasks it depends on
   */
  public static Optional<List<TaskId>> find(Map<TaskId, List<TaskId>> parents) {
    Map<TaskId, List<List<TaskId>>> edges = new LinkedHashMap<>();
    parents.forEach((task, p) -> edges.put(task, List.of(p)));
    return findThroughLists(edges);
  }

  /**
   * As {@link #find}, with each task's parents given as the lists its edges name: a list object that
   * several tasks give is visited once.
   *
   * @param edges for each task in a fixed order, the lists of tasks its edges name, in order
   */
  public static Optional<List<TaskId>> findThroughLists(Map<TaskId, ? extends List<? extends List<TaskId>>> edges) {
    Map<TaskId, Integer> taskColor = new HashMap<>(); // absent = unvisited
    Map<Object, Integer> listColor = new IdentityHashMap<>(); // looked up, never walked
    for (TaskId start : edges.keySet()) {
      if (taskColor.containsKey(start)) {
        continue;
      }
      // Iterative DFS: deep chains (thousands of layers) must not overflow the stack. The path holds
      // tasks and lists by turns.
      Deque<Object> path = new ArrayDeque<>();
      Deque<Integer> nextChild = new ArrayDeque<>();
      path.push(start);
      nextChild.push(0);
      taskColor.put(start, ON_PATH);
      while (!path.isEmpty()) {
        Object node = path.peek();
        List<?> children = node instanceof TaskId task ? edges.get(task) : (List<?>) node;
        if (children == null) {
          children = List.of(); // a task with no edge of its own
        }
        int i = nextChild.pop();
        if (i < children.size()) {
          nextChild.push(i + 1);
          Object child = children.get(i);
          Integer c = child instanceof TaskId t ? taskColor.get(t) : listColor.get(child);
          if (c == null) {
            if (child instanceof TaskId t) {
              taskColor.put(t, ON_PATH);
            } else {
              listColor.put(child, ON_PATH);
            }
            path.push(child);
            nextChild.push(0);
          } else if (c == ON_PATH) {
            return Optional.of(cycle(path, child));
          }
        } else {
          if (node instanceof TaskId t) {
            taskColor.put(t, DONE);
          } else {
            listColor.put(node, DONE);
          }
          path.pop();
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The tasks on the path from {@code repeated} on, then the first of them again. A list met again
   * closes a cycle through the task after it on the path: the last task depends on that list.
   */
  private static List<TaskId> cycle(Deque<Object> path, Object repeated) {
    List<Object> fromTop = new ArrayList<>(path); // top of stack first: the deepest node
    List<TaskId> cycle = new ArrayList<>();
    boolean in = false;
    for (int i = fromTop.size() - 1; i >= 0; i--) {
      Object node = fromTop.get(i);
      in |= node == repeated || node instanceof TaskId && node.equals(repeated);
      if (in && node instanceof TaskId t) {
        cycle.add(t);
      }
    }
    cycle.add(cycle.get(0));
    return cycle;
  }
}
