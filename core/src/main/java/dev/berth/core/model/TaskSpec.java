package dev.berth.core.model;

import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.model.Settings;
import dev.berth.core.model.TaskKey;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.settings.InvalidValue;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One task as Berth will run it: the expanded, validated form of a spec entry, with every default
 * already applied. Built with {@link #builder(String, String)}.
 *
 * <p>A task is its identity (id, group, template, matrix values), its resolved dependencies, and the
 * value of every task key it carries ({@link TaskKeys#carried()}), read with {@link #get}. A key added
 * to {@link TaskKeys} is carried, stored in the journal and compared on resume without a line here.
 * The few values the scheduler's loop reads on every pass ({@link #resources()}, {@link #gpu()},
 * {@link #retry()}) are made once, when the task is.
 */
public final class TaskSpec {

  private final TaskId id;
  private final String group;
  private final String template;
  private final SortedMap<String, String> params;
  private final Optional<Dependency> after;
  private final Optional<Dependency> follow;
  private final Settings settings;
  private final Resources resources;
  private final GpuRequest gpu;
  private final RetryPolicy retry;

  /**
   * A task.
   *
   * @param id unique id within the run
   * @param group name of the group the task belongs to
   * @param template the entry the task was expanded from, as its id was written ({@code train-{lr}-{seed}});
   *     tasks of one template in one group are a family whose measured peaks teach each other's requests
   *     (a task written without a matrix is its own template: its id)
   * @param params matrix values this task was expanded from (empty when none)
   * @param after tasks that must end (as the edge says) before this one starts
   * @param follow tasks whose device this one must run on, once they ended as the edge says
   * @param settings the value of each carried task key, in the form {@link TaskKey#canonical} gives
   * @throws IllegalArgumentException when the values break a rule across keys (no command, a zero timeout,
   *     a GPU request that contradicts itself)
   */
  public TaskSpec(TaskId id, String group, String template, SortedMap<String, String> params,
      Optional<Dependency> after, Optional<Dependency> follow, Settings settings) {
    this.id = Objects.requireNonNull(id, "id");
    this.group = Objects.requireNonNull(group, "group");
    this.template = Objects.requireNonNull(template, "template");
    this.params = params.isEmpty() ? Collections.emptySortedMap()
        : Collections.unmodifiableSortedMap(new TreeMap<>(params));
    this.after = Objects.requireNonNull(after, "after");
    this.follow = Objects.requireNonNull(follow, "follow");
    this.settings = Objects.requireNonNull(settings, "settings");
    if (settings.get(TaskKeys.COMMAND).isEmpty()) {
      throw new IllegalArgumentException("task " + id + ": command must not be empty");
    }
    for (Duration d : new Duration[] {settings.get(TaskKeys.QUEUE_TIMEOUT), settings.get(TaskKeys.TIMEOUT)}) {
      if (d != null && (d.isNegative() || d.isZero())) {
        throw new IllegalArgumentException("task " + id + ": timeouts must be > 0 but was " + d);
      }
    }
    String device = settings.get(TaskKeys.DEVICE);
    if (device != null && !device.matches("cuda:[0-9]{1,4}")) {
      throw new IllegalArgumentException("task " + id + ": device must be cuda:N or none but was " + device);
    }
    this.resources = new Resources(settings.get(TaskKeys.MEMORY), Resources.milliCpus(settings.get(TaskKeys.CPUS)));
    this.gpu = shared(gpuRequest(settings), GpuRequest.NONE);
    this.retry = shared(new RetryPolicy(settings.get(TaskKeys.RETRIES), settings.get(TaskKeys.RETRY_DELAY),
        settings.get(TaskKeys.RETRY_BACKOFF), settings.get(TaskKeys.RETRY_DELAY_MAX)), RetryPolicy.NONE);
  }

  /** {@code key}'s value on this task: null for a key with no value ("none"). */
  public <T> T get(TaskKey<T> key) {
    return settings.get(key);
  }

  /** {@code key}'s value on this task, empty for none. */
  public <T> Optional<T> find(TaskKey<T> key) {
    return Optional.ofNullable(settings.get(key));
  }

  /** The value of every carried key. */
  public Settings settings() {
    return settings;
  }

  /** Unique id within the run. */
  public TaskId id() {
    return id;
  }

  /** Name of the group the task belongs to. */
  public String group() {
    return group;
  }

  /** The entry the task was expanded from, as its id was written; a task without a matrix is its own. */
  public String template() {
    return template;
  }

  /** Matrix values this task was expanded from, sorted by name (empty when none). */
  public SortedMap<String, String> params() {
    return params;
  }

  /** Tasks that must end (as the edge says) before this one starts. */
  public Optional<Dependency> after() {
    return after;
  }

  /** Tasks whose device this one must run on, once they ended as the edge says. */
  public Optional<Dependency> follow() {
    return follow;
  }

  /** The argument vector, never passed through a shell. */
  public List<String> command() {
    return settings.get(TaskKeys.COMMAND);
  }

  /** Extra environment variables, sorted by name. */
  public SortedMap<String, String> env() {
    return (SortedMap<String, String>) settings.get(TaskKeys.ENV);
  }

  /** Higher runs first; ties keep submission order. */
  public int priority() {
    return settings.get(TaskKeys.PRIORITY);
  }

  /** Whether the task's process speaks Berth's load/train protocol (see docs/protocol.md). */
  public boolean twoStage() {
    return settings.get(TaskKeys.TWO_STAGE);
  }

  /** What the task asks of the host. */
  public Resources resources() {
    return resources;
  }

  /** What the task asks of the GPUs ({@link GpuRequest#NONE} for a CPU task). */
  public GpuRequest gpu() {
    return gpu;
  }

  /** How ordinary failures are retried. */
  public RetryPolicy retry() {
    return retry;
  }

  /**
   * Whether a local attempt's memory is limited: the task's (or its group's) {@code enforce-memory},
   * else {@code configured}, the run's {@code scheduler.enforce-memory}.
   */
  public boolean enforcesMemory(boolean configured) {
    Boolean own = settings.get(TaskKeys.ENFORCE_MEMORY);
    return own == null ? configured : own;
  }

  /**
   * The tasks this one names in {@code after} and {@code follow}, without repeats, in order: the
   * edge's own shared list when it has one edge that names no task twice, as a glob's does.
   */
  public List<TaskId> dependsOn() {
    if (after.isEmpty() != follow.isEmpty()) {
      EdgeTasks only = after.or(() -> follow).get().members();
      if (only.distinct()) {
        return only;
      }
    }
    LinkedHashSet<TaskId> ids = new LinkedHashSet<>();
    after.ifPresent(d -> ids.addAll(d.tasks()));
    follow.ifPresent(d -> ids.addAll(d.tasks()));
    return List.copyOf(ids);
  }

  /** This task in group {@code name}; this very task when it is already there. */
  public TaskSpec inGroup(String name) {
    return name.equals(group) ? this : new TaskSpec(id, name, template, params, after, follow, settings);
  }

  /**
   * The task the next value of a matrix makes of this one: another id and matrix values, the rest shared.
   *
   * @param template the new task's template: this one's for a task of the same entry, its id for its own
   */
  public TaskSpec withIdAndParams(TaskId id, SortedMap<String, String> params, String template) {
    return new TaskSpec(id, group, template, params, after, follow, settings);
  }

  /** A builder holding this spec's values. */
  public Builder toBuilder() {
    Builder b = new Builder(id, group, settings.toBuilder()).params(params).template(template);
    b.after = after;
    b.follow = follow;
    return b;
  }

  /** Starts a builder for a task with the given id in the given group. */
  public static Builder builder(String id, String group) {
    return new Builder(TaskId.of(id), group, TaskKeys.initialSettings().toBuilder());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TaskSpec t && id.equals(t.id) && group.equals(t.group) && template.equals(t.template)
        && params.equals(t.params) && after.equals(t.after) && follow.equals(t.follow) && settings.equals(t.settings);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, group, template, params, after, follow, settings);
  }

  @Override
  public String toString() {
    return "TaskSpec[" + id + " in " + group + (template.equals(id.value()) ? "" : " of " + template)
        + (params.isEmpty() ? "" : " " + params) + after.map(d -> " after " + d).orElse("")
        + follow.map(d -> " follow " + d).orElse("") + " " + settings + "]";
  }

  private static GpuRequest gpuRequest(Settings s) {
    String device = s.get(TaskKeys.DEVICE);
    OptionalInt pinned = device == null ? OptionalInt.empty()
        : OptionalInt.of(Integer.parseInt(device.substring("cuda:".length())));
    return new GpuRequest(s.get(TaskKeys.GPU_MEMORY), s.get(TaskKeys.GPUS), pinned, s.get(TaskKeys.TARGETS),
        Optional.ofNullable(s.get(TaskKeys.PLACEMENT)), s.get(TaskKeys.BLACKLIST));
  }

  /** {@code common} when {@code value} equals it: the tasks of a sweep share one instance. */
  private static <T> T shared(T value, T common) {
    return value.equals(common) ? common : value;
  }

  /**
   * Builder with the defaults of a task that sets nothing (each carried key's {@link TaskKey#initial}:
   * 1 core, no memory estimate, no retries, no timeouts). Besides {@link #set}, which takes any carried
   * key, it has typed setters for the values code builds tasks from most.
   */
  public static final class Builder {
    private final TaskId id;
    private final String group;
    private final Settings.Builder settings;
    private final SortedMap<String, String> params = new TreeMap<>();
    private Optional<Dependency> after = Optional.empty();
    private Optional<Dependency> follow = Optional.empty();
    private boolean gpuImplied;
    private boolean cpuPinned;
    private long defaultGpuMemory;
    private String template;

    private Builder(TaskId id, String group, Settings.Builder settings) {
      this.id = id;
      this.group = group;
      this.settings = settings;
    }

    /** Sets a carried key's value, as that key's parser returns it; null for none. */
    public <T> Builder set(TaskKey<T> key, T value) {
      settings.set(key, key.canonical(value));
      return this;
    }

    /** The argument vector. */
    public Builder command(List<String> argv) {
      return set(TaskKeys.COMMAND, argv);
    }

    /** The argument vector. */
    public Builder command(String... argv) {
      return command(List.of(argv));
    }

    /** Adds environment variables. */
    public Builder env(Map<String, String> vars) {
      if (vars.isEmpty()) {
        return this;
      }
      Map<String, String> env = new TreeMap<>(settings.get(TaskKeys.ENV));
      env.putAll(vars);
      return set(TaskKeys.ENV, env);
    }

    /** Host memory reservation in bytes. */
    public Builder memoryBytes(long bytes) {
      return set(TaskKeys.MEMORY, bytes);
    }

    /** Cores, possibly fractional or zero. */
    public Builder cpus(double cpus) {
      return set(TaskKeys.CPUS, cpus);
    }

    /** Priority; higher runs first. */
    public Builder priority(int priority) {
      return set(TaskKeys.PRIORITY, priority);
    }

    /** Matrix values this task was expanded from. */
    public Builder params(Map<String, String> values) {
      params.putAll(values);
      return this;
    }

    /** Tasks that must end before this one starts. */
    public Builder after(Dependency dependency) {
      this.after = Optional.of(dependency);
      return this;
    }

    /** Tasks whose device this one must run on. */
    public Builder follow(Dependency dependency) {
      this.follow = Optional.of(dependency);
      return this;
    }

    /** How ordinary failures are retried. */
    public Builder retry(RetryPolicy policy) {
      return set(TaskKeys.RETRIES, policy.retries()).set(TaskKeys.RETRY_DELAY, policy.delay())
          .set(TaskKeys.RETRY_BACKOFF, policy.backoff()).set(TaskKeys.RETRY_DELAY_MAX, policy.maxDelay());
    }

    /** Longest wait for dependencies and resources. */
    public Builder queueTimeout(Duration d) {
      return set(TaskKeys.QUEUE_TIMEOUT, d);
    }

    /** Longest run of one attempt. */
    public Builder timeout(Duration d) {
      return set(TaskKeys.TIMEOUT, d);
    }

    /** Whether the task speaks the load/train protocol. */
    public Builder twoStage(boolean speaksProtocol) {
      return set(TaskKeys.TWO_STAGE, speaksProtocol);
    }

    /** The entry the task was expanded from, as its id was written; by default the task's own id. */
    public Builder template(String idAsWritten) {
      this.template = idAsWritten;
      return this;
    }

    /** What the task asks of the GPUs. */
    public Builder gpu(GpuRequest request) {
      return set(TaskKeys.GPU_MEMORY, request.memoryBytes()).set(TaskKeys.GPUS, request.wholeDevices())
          .set(TaskKeys.DEVICE, request.pinned().isPresent() ? "cuda:" + request.pinned().getAsInt() : null)
          .set(TaskKeys.TARGETS, request.targets()).set(TaskKeys.PLACEMENT, request.placement().orElse(null))
          .set(TaskKeys.BLACKLIST, request.blacklist());
    }

    /** GPU memory on one device (a share). */
    public Builder gpuMemoryBytes(long bytes) {
      return set(TaskKeys.GPU_MEMORY, bytes);
    }

    /** Whole GPUs, used exclusively. */
    public Builder gpus(int devices) {
      return set(TaskKeys.GPUS, devices);
    }

    /**
     * The device: {@code cpu} (no GPU), {@code cuda} (any GPU) or {@code cuda:N} (that GPU). A task
     * carries only the pin: {@code cpu} forbids a GPU request, {@code cuda} makes one of the
     * configured size when the task gives none.
     *
     * @throws IllegalArgumentException for any other text
     */
    public Builder device(String device) {
      String d = device.strip();
      if (d.equals("cpu")) {
        cpuPinned = true;
        return this;
      }
      gpuImplied = true;
      if (d.equals("cuda")) {
        return this;
      }
      if (!d.matches("cuda:[0-9]{1,4}")) {
        throw new IllegalArgumentException("'" + device + "' is not a device; use cpu, cuda or cuda:N such as cuda:1");
      }
      return set(TaskKeys.DEVICE, "cuda:" + Integer.parseInt(d.substring("cuda:".length())));
    }

    /** The GPUs the task may use, by index; a task that names some asks for a GPU. */
    public Builder targets(List<Integer> indices) {
      gpuImplied = true;
      return set(TaskKeys.TARGETS, indices);
    }

    /** The GPU placement policy for this task. */
    public Builder placement(PlacementPolicyName policy) {
      return set(TaskKeys.PLACEMENT, policy);
    }

    /** Whether a retry avoids devices where the task failed. */
    public Builder blacklist(boolean avoid) {
      return set(TaskKeys.BLACKLIST, avoid);
    }

    /** Whether a local attempt's memory is limited to its reservation; unset, the config decides. */
    public Builder enforceMemory(boolean limit) {
      return set(TaskKeys.ENFORCE_MEMORY, limit);
    }

    /** GPU memory for a task that asks for a GPU ({@code device: cuda}, a pin or targets) without saying how much. */
    public Builder defaultGpuMemoryBytes(long bytes) {
      this.defaultGpuMemory = bytes;
      return this;
    }

    /**
     * Builds the validated spec.
     *
     * @throws dev.berth.core.settings.InvalidValue when an argument or an environment variable holds a NUL
     *     character, placed at it ({@code command[1]}, {@code env.SEED})
     * @throws IllegalArgumentException when the values break a rule across keys
     */
    public TaskSpec build() {
      refuseNul();
      boolean wantsGpu = settings.get(TaskKeys.GPU_MEMORY) > 0 || settings.get(TaskKeys.GPUS) > 0;
      if (cpuPinned && (wantsGpu || gpuImplied)) {
        throw new IllegalArgumentException("task " + id + " has device: cpu but also asks for a GPU"
            + " (gpu-memory, gpus, targets); drop one of them");
      }
      if (gpuImplied && !wantsGpu) {
        set(TaskKeys.GPU_MEMORY, defaultGpuMemory > 0 ? defaultGpuMemory : 1);
      }
      return new TaskSpec(id, group, template == null ? id.value() : template, params, after, follow,
          settings.build());
    }

    /**
     * A program's arguments and environment are C strings: a NUL would end one there and the task
     * would run with less than was written, so it is refused before anything starts.
     */
    private void refuseNul() {
      List<String> command = settings.get(TaskKeys.COMMAND);
      for (int i = 0; i < command.size(); i++) {
        if (command.get(i).indexOf('\0') >= 0) {
          throw nul("command[" + i + "]", "argument " + i);
        }
      }
      for (Map.Entry<String, String> e : settings.get(TaskKeys.ENV).entrySet()) {
        if (e.getKey().indexOf('\0') >= 0 || e.getValue().indexOf('\0') >= 0) {
          throw nul(InvalidValue.join("env", e.getKey()), "environment variable " + e.getKey().replace("\0", "\\0"));
        }
      }
    }

    private InvalidValue nul(String path, String what) {
      return new InvalidValue(null, path, "task " + id + ": " + what + " holds a NUL character (\\0), which would"
          + " cut it short where the program reads it; remove it");
    }
  }
}
