package dev.berth.testkit;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Resources;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.units.ByteSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Readable builders of {@link TaskSpec}s and {@link RunSpec}s for tests, e.g.
 *
 * <pre>{@code
 * TaskSpec a = TaskSpecs.task("a").memoryMiB(512).cpus(1).priority(2).build();
 * RunSpec run = TaskSpecs.run("r")
 *     .group("g1", a, TaskSpecs.task("b").build())
 *     .group("g2", TaskSpecs.task("c").memory("1.5GiB").build())
 *     .config(SchedulerConfig.builder().set(SchedulerKeys.MAX_PROCESS, 2).build())
 *     .build();
 * }</pre>
 *
 * <p>A task that names no group is in {@link #DEFAULT_GROUP}; {@link RunBuilder#group} moves such
 * tasks into the group they are listed in. A task that names another group is rejected there, as
 * {@link GroupSpec} would. Everything the builders produce is validated by the core types.
 */
public final class TaskSpecs {

  /** The group of a task built without {@link TaskBuilder#group(String)}. */
  public static final String DEFAULT_GROUP = "default";

  /** The command of a task built without {@link TaskBuilder#command(String...)}. */
  public static final List<String> DEFAULT_COMMAND = List.of("true");

  private TaskSpecs() {}

  /**
   * A builder for a task with this id: group {@link #DEFAULT_GROUP}, command {@link
   * #DEFAULT_COMMAND}, no memory estimate, 1 core, priority 0, no environment and no params.
   */
  public static TaskBuilder task(String id) {
    return new TaskBuilder(id);
  }

  /**
   * A builder for a run with this name: workdir {@code runs/<name>}, {@link
   * SchedulerConfig#DEFAULTS}, no groups.
   */
  public static RunBuilder run(String name) {
    return new RunBuilder(name);
  }

  /** A mutable builder of one {@link TaskSpec}; each setter returns the builder. */
  public static final class TaskBuilder {
    private final String id;
    private String group = DEFAULT_GROUP;
    private List<String> command = DEFAULT_COMMAND;
    private final SortedMap<String, String> env = new TreeMap<>();
    private long memoryBytes;
    private long milliCpus = 1000;
    private int priority;
    private final SortedMap<String, String> params = new TreeMap<>();

    private TaskBuilder(String id) {
      this.id = Objects.requireNonNull(id, "id");
    }

    /** The group the task belongs to. */
    public TaskBuilder group(String name) {
      this.group = Objects.requireNonNull(name, "group");
      return this;
    }

    /** The argument vector. */
    public TaskBuilder command(String... argv) {
      return command(List.of(argv));
    }

    /** The argument vector. */
    public TaskBuilder command(List<String> argv) {
      this.command = List.copyOf(argv);
      return this;
    }

    /** Adds one environment variable. */
    public TaskBuilder env(String name, String value) {
      env.put(name, value);
      return this;
    }

    /** Adds environment variables. */
    public TaskBuilder env(Map<String, String> vars) {
      env.putAll(vars);
      return this;
    }

    /** Host memory reservation in bytes. */
    public TaskBuilder memoryBytes(long bytes) {
      this.memoryBytes = bytes;
      return this;
    }

    /** Host memory reservation in MiB (2^20 bytes). */
    public TaskBuilder memoryMiB(long mebibytes) {
      return memoryBytes(Math.multiplyExact(mebibytes, 1L << 20));
    }

    /** Host memory reservation in GiB (2^30 bytes). */
    public TaskBuilder memoryGiB(long gibibytes) {
      return memoryBytes(Math.multiplyExact(gibibytes, 1L << 30));
    }

    /** Host memory reservation written as in a spec file, e.g. {@code "1.5GiB"} or {@code "512 MB"}. */
    public TaskBuilder memory(String size) {
      return memoryBytes(ByteSize.parse(size));
    }

    /** Cores, possibly fractional ({@code 0.5}) or zero. */
    public TaskBuilder cpus(double cores) {
      this.milliCpus = Resources.milliCpus(cores);
      return this;
    }

    /** Priority; higher runs first, ties keep submission order. */
    public TaskBuilder priority(int priority) {
      this.priority = priority;
      return this;
    }

    /** Adds one matrix value the task was expanded from. */
    public TaskBuilder param(String name, String value) {
      params.put(name, value);
      return this;
    }

    /** Builds the validated spec. */
    public TaskSpec build() {
      return TaskSpec.builder(id, group).command(command).env(env).memoryBytes(memoryBytes)
          .cpus(milliCpus / 1000.0).priority(priority).params(params).build();
    }
  }

  /** A mutable builder of one {@link RunSpec}; each setter returns the builder. */
  public static final class RunBuilder {
    private final String name;
    private String workdir;
    private SchedulerConfig config = SchedulerConfig.DEFAULTS;
    private final List<GroupSpec> groups = new ArrayList<>();

    private RunBuilder(String name) {
      this.name = Objects.requireNonNull(name, "name");
      this.workdir = "runs/" + name;
    }

    /** The run's folder. */
    public RunBuilder workdir(String path) {
      this.workdir = Objects.requireNonNull(path, "workdir");
      return this;
    }

    /** The scheduler configuration. */
    public RunBuilder config(SchedulerConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /**
     * Appends a group; groups run in the order they are added. Tasks in {@link #DEFAULT_GROUP} are
     * moved into this group; a task naming another group is rejected.
     *
     * @throws IllegalArgumentException when the name is invalid, a task names another group or an
     *     id repeats within the group
     */
    public RunBuilder group(String groupName, TaskSpec... tasks) {
      return group(groupName, List.of(tasks));
    }

    /** Appends a group; see {@link #group(String, TaskSpec...)}. */
    public RunBuilder group(String groupName, List<TaskSpec> tasks) {
      List<TaskSpec> placed = new ArrayList<>(tasks.size());
      for (TaskSpec t : tasks) {
        placed.add(t.group().equals(DEFAULT_GROUP) && !groupName.equals(DEFAULT_GROUP) ? t.inGroup(groupName) : t);
      }
      groups.add(new GroupSpec(groupName, placed));
      return this;
    }

    /**
     * Builds the validated run.
     *
     * @throws IllegalArgumentException when the run name is invalid, or a group name or task id repeats
     */
    public RunSpec build() {
      return new RunSpec(name, workdir, config, groups);
    }
  }
}
