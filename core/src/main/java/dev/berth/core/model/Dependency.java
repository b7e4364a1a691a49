package dev.berth.core.model;

import java.util.List;

/**
 * An edge from a task to the tasks it depends on, with ipyparallel's options.
 *
 * @param tasks the tasks depended on (already resolved from ids, globs and {@code group:NAME})
 * @param all whether every one of them must satisfy the edge ({@code true}) or any one ({@code false})
 * @param success whether a task that succeeded satisfies the edge
 * @param failure whether a task that failed (or timed out, or became unreachable) satisfies it
 */
public record Dependency(List<TaskId> tasks, boolean all, boolean success, boolean failure) {

  /** Validates: at least one task, and at least one of success and failure. */
  public Dependency {
    tasks = List.copyOf(tasks);
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

  /** Describes the condition for people, e.g. {@code "all of [a, b] succeeded"}. */
  public String describe() {
    String which = tasks.size() == 1 ? tasks.get(0).value() : (all ? "all of " : "any of ") + tasks;
    String how = success && failure ? "ended" : success ? "succeeded" : "failed";
    return which + " " + how;
  }
}
