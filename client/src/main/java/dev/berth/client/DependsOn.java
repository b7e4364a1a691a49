package dev.berth.client;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The tasks a task waits for ({@code after}) or whose device it follows ({@code follow}), with
 * ipyparallel's options: the spec's {@code {tasks: [...], all: true, success: true, failure: false}}.
 *
 * <p>Each entry is a task id, a glob such as {@code train-*}, or {@code group:NAME}; they are
 * resolved against the tasks known when the task is submitted (earlier submissions of the session
 * and the task's own group), and a glob or group never includes the task itself.
 *
 * @param tasks ids, globs or {@code group:NAME}, at least one
 * @param all whether every one of them must satisfy the edge ({@code true}) or any one
 * @param success whether a task that succeeded satisfies the edge
 * @param failure whether a task that failed, timed out or became unreachable satisfies it
 */
public record DependsOn(List<String> tasks, boolean all, boolean success, boolean failure) {

  /**
   * Validates.
   *
   * @throws IllegalArgumentException when no task is named, an entry is blank, or neither
   *     {@code success} nor {@code failure} is set
   */
  public DependsOn {
    Objects.requireNonNull(tasks, "tasks");
    tasks = List.copyOf(tasks);
    if (tasks.isEmpty()) {
      throw new IllegalArgumentException("a dependency must name at least one task, glob or group:NAME");
    }
    for (String t : tasks) {
      if (t.isBlank()) {
        throw new IllegalArgumentException("a dependency entry must not be blank: " + tasks);
      }
    }
    if (!success && !failure) {
      throw new IllegalArgumentException("success: false with failure: false can never be met; set one of them to true");
    }
  }

  /** Every one of these tasks must have succeeded: the usual edge. */
  public static DependsOn on(String... tasks) {
    return new DependsOn(Arrays.asList(tasks), true, true, false);
  }

  /** The same tasks, of which any one is enough ({@code all: false}). */
  public DependsOn any() {
    return new DependsOn(tasks, false, success, failure);
  }

  /** The same tasks, satisfied once they ended in any way but cancellation ({@code success} and {@code failure}). */
  public DependsOn whenEnded() {
    return new DependsOn(tasks, all, true, true);
  }

  /** The same edge with each entry passed through {@code f}, e.g. to fill a template's placeholders. */
  DependsOn mapTasks(UnaryOperator<String> f) {
    return new DependsOn(tasks.stream().map(f).toList(), all, success, failure);
  }

  /** The same tasks, satisfied only by failures ({@code success: false, failure: true}). */
  public DependsOn whenFailed() {
    return new DependsOn(tasks, all, false, true);
  }
}
