package dev.berth.client;

import dev.berth.core.settings.DependencyPatterns;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
    DependencyPatterns.parse(written(tasks, all, success, failure));
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

  /** The same tasks, satisfied only by failures ({@code success: false, failure: true}). */
  public DependsOn whenFailed() {
    return new DependsOn(tasks, all, false, true);
  }

  /** The edge as a spec writes it, {@code {tasks: [...], all, success, failure}}, for the task keys' parser. */
  Map<String, Object> written() {
    return written(tasks, all, success, failure);
  }

  private static Map<String, Object> written(List<String> tasks, boolean all, boolean success, boolean failure) {
    Map<String, Object> written = new LinkedHashMap<>();
    written.put("tasks", tasks);
    written.put("all", all);
    written.put("success", success);
    written.put("failure", failure);
    return written;
  }
}
