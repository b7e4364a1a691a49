package dev.berth.core.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One task as Berth will run it: the expanded, validated form of a spec entry, with every default
 * already applied. Built with {@link #builder(String, String)}.
 *
 * @param id unique id within the run
 * @param group name of the group the task belongs to
 * @param command argument vector, never passed through a shell
 * @param env extra environment variables, sorted by name
 * @param resources what the task asks of the host
 * @param priority higher runs first; ties keep submission order
 * @param params matrix values this task was expanded from, sorted by name (empty when none)
 */
public record TaskSpec(
    TaskId id,
    String group,
    List<String> command,
    SortedMap<String, String> env,
    Resources resources,
    int priority,
    SortedMap<String, String> params) {

  /** Validates and defensively copies. */
  public TaskSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(resources, "resources");
    command = List.copyOf(command);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("task " + id + ": command must not be empty");
    }
    env = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(env));
    params = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(params));
  }

  /** Starts a builder for a task with the given id in the given group. */
  public static Builder builder(String id, String group) {
    return new Builder(TaskId.of(id), group);
  }

  /** Builder with the defaults of a task that sets nothing: 1 core, no memory estimate. */
  public static final class Builder {
    private final TaskId id;
    private final String group;
    private List<String> command = List.of();
    private final SortedMap<String, String> env = new TreeMap<>();
    private long memoryBytes;
    private long milliCpus = 1000;
    private int priority;
    private final SortedMap<String, String> params = new TreeMap<>();

    private Builder(TaskId id, String group) {
      this.id = id;
      this.group = group;
    }

    /** The argument vector. */
    public Builder command(List<String> argv) {
      this.command = List.copyOf(argv);
      return this;
    }

    /** The argument vector. */
    public Builder command(String... argv) {
      return command(List.of(argv));
    }

    /** Adds environment variables. */
    public Builder env(Map<String, String> vars) {
      env.putAll(vars);
      return this;
    }

    /** Host memory reservation in bytes. */
    public Builder memoryBytes(long bytes) {
      this.memoryBytes = bytes;
      return this;
    }

    /** Cores, possibly fractional or zero. */
    public Builder cpus(double cpus) {
      this.milliCpus = Resources.milliCpus(cpus);
      return this;
    }

    /** Priority; higher runs first. */
    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    /** Matrix values this task was expanded from. */
    public Builder params(Map<String, String> values) {
      params.putAll(values);
      return this;
    }

    /** Builds the validated spec. */
    public TaskSpec build() {
      return new TaskSpec(id, group, command, env, new Resources(memoryBytes, milliCpus), priority, params);
    }
  }
}
