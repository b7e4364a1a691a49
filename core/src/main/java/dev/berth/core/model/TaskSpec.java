package dev.berth.core.model;

import dev.berth.core.gpu.PlacementPolicyName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * @param after tasks that must end (as the edge says) before this one starts
 * @param follow tasks whose device this one must run on, once they ended as the edge says
 * @param retry how ordinary failures are retried
 * @param queueTimeout longest wait for dependencies and resources before the task times out
 * @param timeout longest run of one attempt before it is killed
 * @param gpu what the task asks of the GPUs ({@link GpuRequest#NONE} for a CPU task)
 * @param twoStage whether the task's process speaks Berth's load/train protocol (see docs/protocol.md)
 * @param template the entry the task was expanded from, as its id was written ({@code train-{lr}-{seed}});
 *     tasks of one template in one group are a family whose measured peaks teach each other's requests
 *     (a task written without a matrix is its own template: its id)
 * @param enforceMemory whether a local attempt's memory is limited to its reservation in its cgroup, as the
 *     task or its group set it ({@code enforce-memory}); empty when neither did and
 *     {@code scheduler.enforce-memory} decides
 */
public record TaskSpec(
    TaskId id,
    String group,
    List<String> command,
    SortedMap<String, String> env,
    Resources resources,
    int priority,
    SortedMap<String, String> params,
    Optional<Dependency> after,
    Optional<Dependency> follow,
    RetryPolicy retry,
    Optional<Duration> queueTimeout,
    Optional<Duration> timeout,
    GpuRequest gpu,
    boolean twoStage,
    String template,
    Optional<Boolean> enforceMemory) {

  // Most tasks set no variables: one empty map for all of them, not two objects per task.
  private static final SortedMap<String, String> NO_ENV = java.util.Collections.emptySortedMap();

  /** Validates and defensively copies. */
  public TaskSpec {
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(enforceMemory, "enforceMemory");
    Objects.requireNonNull(after, "after");
    Objects.requireNonNull(follow, "follow");
    Objects.requireNonNull(retry, "retry");
    Objects.requireNonNull(queueTimeout, "queueTimeout");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(gpu, "gpu");
    for (Optional<Duration> d : List.of(queueTimeout, timeout)) {
      if (d.isPresent() && (d.get().isNegative() || d.get().isZero())) {
        throw new IllegalArgumentException("task " + id + ": timeouts must be > 0 but was " + d.get());
      }
    }
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(resources, "resources");
    command = List.copyOf(command);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("task " + id + ": command must not be empty");
    }
    env = env.isEmpty() ? NO_ENV : java.util.Collections.unmodifiableSortedMap(new TreeMap<>(env));
    params = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(params));
  }

  /** A task that leaves memory enforcement to {@code scheduler.enforce-memory}. */
  public TaskSpec(
      TaskId id, String group, List<String> command, SortedMap<String, String> env, Resources resources,
      int priority, SortedMap<String, String> params, Optional<Dependency> after, Optional<Dependency> follow,
      RetryPolicy retry, Optional<Duration> queueTimeout, Optional<Duration> timeout, GpuRequest gpu,
      boolean twoStage, String template) {
    this(id, group, command, env, resources, priority, params, after, follow, retry, queueTimeout, timeout, gpu,
        twoStage, template, Optional.empty());
  }

  /** Whether a local attempt's memory is limited: the task's (or its group's) choice, else {@code configured}. */
  public boolean enforcesMemory(boolean configured) {
    return enforceMemory.orElse(configured);
  }

  /** A task that is its own template. */
  public TaskSpec(
      TaskId id, String group, List<String> command, SortedMap<String, String> env, Resources resources,
      int priority, SortedMap<String, String> params, Optional<Dependency> after, Optional<Dependency> follow,
      RetryPolicy retry, Optional<Duration> queueTimeout, Optional<Duration> timeout, GpuRequest gpu,
      boolean twoStage) {
    this(id, group, command, env, resources, priority, params, after, follow, retry, queueTimeout, timeout, gpu,
        twoStage, id.value());
  }

  /** A task with no dependencies, retries or timeouts. */
  public TaskSpec(
      TaskId id, String group, List<String> command, SortedMap<String, String> env, Resources resources,
      int priority, SortedMap<String, String> params) {
    this(id, group, command, env, resources, priority, params, Optional.empty(), Optional.empty(), RetryPolicy.NONE,
        Optional.empty(), Optional.empty(), GpuRequest.NONE, false);
  }

  /** The tasks this one names in {@code after} and {@code follow}, without repeats, in order. */
  public List<TaskId> dependsOn() {
    java.util.LinkedHashSet<TaskId> ids = new java.util.LinkedHashSet<>();
    after.ifPresent(d -> ids.addAll(d.tasks()));
    follow.ifPresent(d -> ids.addAll(d.tasks()));
    return List.copyOf(ids);
  }

  /** A builder holding this spec's values. */
  public Builder toBuilder() {
    Builder b = new Builder(id, group).command(command).env(env).priority(priority).params(params).retry(retry);
    b.memoryBytes = resources.memoryBytes();
    b.milliCpus = resources.milliCpus();
    b.after = after;
    b.follow = follow;
    b.queueTimeout = queueTimeout;
    b.timeout = timeout;
    b.gpu = gpu;
    b.twoStage = twoStage;
    b.template = template;
    b.enforceMemory = enforceMemory;
    return b;
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
    private Optional<Dependency> after = Optional.empty();
    private Optional<Dependency> follow = Optional.empty();
    private RetryPolicy retry = RetryPolicy.NONE;
    private Optional<Duration> queueTimeout = Optional.empty();
    private Optional<Duration> timeout = Optional.empty();
    private Optional<Boolean> enforceMemory = Optional.empty();
    private GpuRequest gpu = GpuRequest.NONE;
    private boolean gpuImplied;
    private boolean twoStage;
    private boolean cpuPinned;
    private long defaultGpuMemory;
    private String template;

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
      this.retry = policy;
      return this;
    }

    /** Retries after ordinary failures, keeping the other retry settings. */
    public Builder retries(int retries) {
      this.retry = new RetryPolicy(retries, retry.delay(), retry.backoff(), retry.maxDelay());
      return this;
    }

    /** Wait before the first retry, keeping the other retry settings. */
    public Builder retryDelay(Duration delay) {
      this.retry = new RetryPolicy(retry.retries(), delay, retry.backoff(), retry.maxDelay());
      return this;
    }

    /** Factor the retry wait grows by, keeping the other retry settings. */
    public Builder retryBackoff(double backoff) {
      this.retry = new RetryPolicy(retry.retries(), retry.delay(), backoff, retry.maxDelay());
      return this;
    }

    /** Cap on the retry wait, keeping the other retry settings. */
    public Builder retryDelayMax(Duration max) {
      this.retry = new RetryPolicy(retry.retries(), retry.delay(), retry.backoff(), max);
      return this;
    }

    /** Longest wait for dependencies and resources. */
    public Builder queueTimeout(Duration d) {
      this.queueTimeout = Optional.of(d);
      return this;
    }

    /** Longest run of one attempt. */
    public Builder timeout(Duration d) {
      this.timeout = Optional.of(d);
      return this;
    }

    /** Builds the validated spec. */
    public TaskSpec build() {
      if (cpuPinned && (gpu.wantsGpu() || gpuImplied)) {
        throw new IllegalArgumentException("task " + id + " has device: cpu but also asks for a GPU"
            + " (gpu-memory, gpus, targets); drop one of them");
      }
      GpuRequest gpu = this.gpu;
      if (gpuImplied && !gpu.wantsGpu()) {
        gpu = gpu.withMemory(defaultGpuMemory > 0 ? defaultGpuMemory : 1);
      }
      return new TaskSpec(id, group, command, env, new Resources(memoryBytes, milliCpus), priority, params, after,
          follow, retry, queueTimeout, timeout, gpu, twoStage, template == null ? id.value() : template,
          enforceMemory);
    }

    /** Whether a local attempt's memory is limited to its reservation; unset, the config decides. */
    public Builder enforceMemory(boolean limit) {
      this.enforceMemory = Optional.of(limit);
      return this;
    }

    /** The entry the task was expanded from, as its id was written; by default the task's own id. */
    public Builder template(String idAsWritten) {
      this.template = idAsWritten;
      return this;
    }

    /** Whether the task speaks the load/train protocol. */
    public Builder twoStage(boolean speaksProtocol) {
      this.twoStage = speaksProtocol;
      return this;
    }

    /** What the task asks of the GPUs. */
    public Builder gpu(GpuRequest request) {
      this.gpu = request;
      return this;
    }

    /** GPU memory on one device (a share). */
    public Builder gpuMemoryBytes(long bytes) {
      gpu = new GpuRequest(bytes, gpu.wholeDevices(), gpu.pinned(), gpu.targets(), gpu.placement(), gpu.blacklist());
      return this;
    }

    /** Whole GPUs, used exclusively. */
    public Builder gpus(int devices) {
      gpu = new GpuRequest(gpu.memoryBytes(), devices, gpu.pinned(), gpu.targets(), gpu.placement(), gpu.blacklist());
      return this;
    }

    /**
     * The device: {@code cpu} (no GPU), {@code cuda} (any GPU) or {@code cuda:N} (that GPU).
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
      int index = Integer.parseInt(d.substring("cuda:".length()));
      gpu = new GpuRequest(gpu.memoryBytes(), gpu.wholeDevices(), java.util.OptionalInt.of(index), gpu.targets(),
          gpu.placement(), gpu.blacklist());
      return this;
    }

    /** The GPUs the task may use, by index. */
    public Builder targets(List<Integer> indices) {
      gpuImplied = true;
      gpu = new GpuRequest(gpu.memoryBytes(), gpu.wholeDevices(), gpu.pinned(), indices, gpu.placement(), gpu.blacklist());
      return this;
    }

    /** The GPU placement policy for this task. */
    public Builder placement(PlacementPolicyName policy) {
      gpu = new GpuRequest(gpu.memoryBytes(), gpu.wholeDevices(), gpu.pinned(), gpu.targets(), Optional.of(policy),
          gpu.blacklist());
      return this;
    }

    /** Whether a retry avoids devices where the task failed. */
    public Builder blacklist(boolean avoid) {
      gpu = new GpuRequest(gpu.memoryBytes(), gpu.wholeDevices(), gpu.pinned(), gpu.targets(), gpu.placement(), avoid);
      return this;
    }

    /** GPU memory for a task that asks for a GPU ({@code device: cuda}, a pin or targets) without saying how much. */
    public Builder defaultGpuMemoryBytes(long bytes) {
      this.defaultGpuMemory = bytes;
      return this;
    }
  }
}
