package dev.berth.core.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Finds a dependency cycle, deterministically: tasks and edges are visited in the order given. */
public final class DependencyCycles {

  private DependencyCycles() {}

  /**
   * Returns one cycle as the list of tasks along it, first task repeated at the end
   * ({@code [a, b, c, a]}), or empty when the graph has none.
   *
   * @param parents for each task in a fixed order, the tasks it depends on
   */
  public static Optional<List<TaskId>> find(Map<TaskId, List<TaskId>> parents) {
    Map<TaskId, Integer> color = new HashMap<>(); // absent = unvisited, 1 = on the path, 2 = done
    for (TaskId start : parents.keySet()) {
      if (color.containsKey(start)) {
        continue;
      }
      // Iterative DFS: deep chains (thousands of layers) must not overflow the stack.
      Deque<TaskId> path = new ArrayDeque<>();
      Deque<Integer> nextChild = new ArrayDeque<>();
      path.push(start);
      nextChild.push(0);
      color.put(start, 1);
      while (!path.isEmpty()) {
        TaskId node = path.peek();
        List<TaskId> children = parents.getOrDefault(node, List.of());
        int i = nextChild.pop();
        if (i < children.size()) {
          nextChild.push(i + 1);
          TaskId child = children.get(i);
          Integer c = color.get(child);
          if (c == null) {
            color.put(child, 1);
            path.push(child);
            nextChild.push(0);
          } else if (c == 1) {
            return Optional.of(cycle(path, child));
          }
        } else {
          color.put(node, 2);
          path.pop();
        }
      }
    }
    return Optional.empty();
  }

  private static List<TaskId> cycle(Deque<TaskId> path, TaskId repeated) {
    List<TaskId> fromTop = new ArrayList<>(path); // top of stack first: the deepest task
    List<TaskId> cycle = new ArrayList<>();
    for (int i = fromTop.size() - 1; i >= 0; i--) {
      if (!cycle.isEmpty() || fromTop.get(i).equals(repeated)) {
        cycle.add(fromTop.get(i));
      }
    }
    cycle.add(repeated);
    return cycle;
  }
}
