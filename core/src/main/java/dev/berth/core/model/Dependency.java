package dev.berth.core.model;

import java.util.List;

/**
 * An edge from a task to the tasks it depends on, with ipyparallel's options.
 *
 * @param tasks the tasks depended on (already resolved from ids, globs and {@code group:NAME}), as
 *     {@link EdgeTasks}: edges that name the same tasks share one list
 * @param all whether every one of them must satisfy the edge ({@code true}) or any one ({@code false})
 * @param success whether a task that succeeded satisfies the edge
 * @param failure whether a task that failed (or timed out, or became unreachable) satisfies it
 */
public record Dependency(List<TaskId> tasks, boolean all, boolean success, boolean failure) {

  /** Validates: at least one task, and at least one of success and failure. */
  public Dependency {
    tasks = EdgeTasks.of(tasks);
    if (tasks.isEmpty()) {
      throw new IllegalArgumentException("a dependency needs at least one task");
    }
    if (!success && !failure) {
      throw new IllegalArgumentException("a dependency with success: false and failure: false can never be met");
    }
  }

  /** The usual edge: every one of these tasks must have succeeded. */
  public static Dependency allSucceeded(List<TaskId> tasks) {
    return new Dependency(tasks, true, true, false);
  }

  /** {@link #tasks()} as the list it is, shared with the edges that name the same tasks. */
  public EdgeTasks members() {
    return (EdgeTasks) tasks;
  }

  /**
   * Describes the condition for people, e.g. {@code "all of [a, b] succeeded"}; an edge to more than
   * {@value #LISTED} tasks names the first few and how many more, as a glob's thousands of ids would
   * make the reason of every task that waits on it a page long.
   */
  public String describe() {
    String which = tasks.size() == 1 ? tasks.get(0).value() : (all ? "all of " : "any of ") + listed(tasks);
    String how = success && failure ? "ended" : success ? "succeeded" : "failed";
    return which + " " + how;
  }

  /** How many tasks {@link #describe} names before it counts the rest. */
  static final int LISTED = 10;

  private static String listed(List<TaskId> tasks) {
    if (tasks.size() <= LISTED) {
      return tasks.toString();
    }
    String first = tasks.subList(0, LISTED - 1).toString();
    return first.substring(0, first.length() - 1) + ", ... " + (tasks.size() - LISTED + 1) + " more]";
  }
}
