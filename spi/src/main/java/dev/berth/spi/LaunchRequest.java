package dev.berth.spi;

import dev.berth.core.model.TaskId;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything an executor needs to start one attempt of a task.
 *
 * @param task the task
 * @param attempt 1-based attempt number
 * @param command argument vector; never run through a shell
 * @param env variables added to the inherited environment
 * @param workdir the working directory, created by the executor if missing
 * @param stdout file that receives standard output (appended)
 * @param stderr file that receives standard error (appended)
 */
public record LaunchRequest(
    TaskId task, int attempt, List<String> command, SortedMap<String, String> env, Path workdir, Path stdout, Path stderr) {

  /** Validates and copies. */
  public LaunchRequest {
    Objects.requireNonNull(task, "task");
    command = List.copyOf(command);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("command must not be empty");
    }
    env = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(env));
    Objects.requireNonNull(workdir, "workdir");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
  }
}
