package dev.berth.client;

import dev.berth.core.gpu.PlacementPolicies;
import dev.berth.core.units.ByteSize;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The task keys of a spec, as fluent setters shared by {@link TaskBuilder}, {@link TaskTemplate}
 * and {@link GroupBuilder} (where they are the defaults of the group's tasks). A key left unset
 * takes the group's value, then the configuration's ({@code scheduler.default-memory} for memory,
 * {@code scheduler.default-cuda-memory} for a GPU task that gives no GPU memory), then the built-in
 * default (1 core, priority 0, no retries, no timeouts), exactly as in a YAML spec.
 *
 * <p>Setters check their value at once and throw {@link IllegalArgumentException} stating the rule.
 *
 * @param <S> the concrete builder, returned by every setter
 */
public abstract class TaskSettings<S extends TaskSettings<S>> {

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern DEVICE = Pattern.compile("cpu|cuda|cuda:[0-9]{1,4}");

  final SettingValues values;

  TaskSettings() {
    this.values = new SettingValues();
  }

  TaskSettings(SettingValues values) {
    this.values = values.copy();
  }

  @SuppressWarnings("unchecked") // S is the subclass by construction: only this package subclasses
  private S self() {
    return (S) this;
  }

  /**
   * Adds one environment variable ({@code env}); a task's variables are added to its group's.
   *
   * @throws IllegalArgumentException when the name is not letters, digits and {@code _}, not starting with a digit
   */
  public S env(String name, String value) {
    Objects.requireNonNull(value, "value");
    if (name == null || !ENV_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("env: '" + name + "' is not a valid environment variable name; use letters,"
          + " digits and '_', not starting with a digit");
    }
    values.env.put(name, value);
    return self();
  }

  /** Adds environment variables ({@code env}); see {@link #env(String, String)}. */
  public S env(Map<String, String> variables) {
    variables.forEach(this::env);
    return self();
  }

  /**
   * Host memory reserved for the task, in bytes ({@code memory}).
   *
   * @throws IllegalArgumentException when negative
   */
  public S memoryBytes(long bytes) {
    values.memoryBytes = bytes("memory", bytes);
    return self();
  }

  /**
   * Host memory reserved for the task, written as in a spec: {@code 512MiB}, {@code 2GB}, {@code 1.5GiB}.
   *
   * @throws IllegalArgumentException when the text is not a memory size
   */
  public S memory(String size) {
    return memoryBytes(ByteSize.parse(size));
  }

  /**
   * Cores the task uses ({@code cpus}); may be fractional or 0. Default 1.
   *
   * @throws IllegalArgumentException when negative, NaN or above 1,000,000
   */
  public S cpus(double cores) {
    dev.berth.core.model.Resources.milliCpus(cores);
    values.cpus = cores;
    return self();
  }

  /** Priority ({@code priority}): higher starts first, ties keep submission order. Default 0. */
  public S priority(int priority) {
    values.priority = priority;
    return self();
  }

  /**
   * Tasks that must all succeed before this one starts ({@code after}): ids, globs such as
   * {@code train-*}, or {@code group:NAME}.
   */
  public S after(String... tasks) {
    return after(DependsOn.on(tasks));
  }

  /** Tasks this one waits for, with ipyparallel's options ({@code after: {tasks, all, success, failure}}). */
  public S after(DependsOn dependency) {
    values.after = Objects.requireNonNull(dependency, "dependency");
    return self();
  }

  /** Tasks that must all succeed before this one starts, named by their handles. */
  public S after(TaskHandle... tasks) {
    return after(DependsOn.on(ids(tasks)));
  }

  /**
   * Tasks whose device this one must run on, once they all succeeded ({@code follow}): ids, globs
   * or {@code group:NAME}.
   */
  public S follow(String... tasks) {
    return follow(DependsOn.on(tasks));
  }

  /** Tasks whose device this one must run on, with ipyparallel's options. */
  public S follow(DependsOn dependency) {
    values.follow = Objects.requireNonNull(dependency, "dependency");
    return self();
  }

  /** Tasks whose device this one must run on, named by their handles. */
  public S follow(TaskHandle... tasks) {
    return follow(DependsOn.on(ids(tasks)));
  }

  /**
   * Retries after ordinary failures ({@code retries}): the task gets at most {@code retries + 1} attempts.
   *
   * @throws IllegalArgumentException when negative
   */
  public S retries(int retries) {
    values.retries = count("retries", retries);
    return self();
  }

  /**
   * Wait before the first retry ({@code retry-delay}).
   *
   * @throws IllegalArgumentException when negative
   */
  public S retryDelay(Duration delay) {
    values.retryDelay = nonNegative("retry-delay", delay);
    return self();
  }

  /**
   * Factor the retry wait grows by for each further retry ({@code retry-backoff}); 1 keeps it constant.
   *
   * @throws IllegalArgumentException unless from 1 to 1000
   */
  public S retryBackoff(double factor) {
    if (!(factor >= 1 && factor <= 1000)) {
      throw new IllegalArgumentException("retry-backoff must be a number from 1 (constant delay) to 1000 but was " + factor);
    }
    values.retryBackoff = factor;
    return self();
  }

  /**
   * Cap on the retry wait ({@code retry-delay-max}).
   *
   * @throws IllegalArgumentException when negative
   */
  public S retryDelayMax(Duration max) {
    values.retryDelayMax = nonNegative("retry-delay-max", max);
    return self();
  }

  /**
   * Longest wait for dependencies and resources before the task ends as timed out ({@code queue-timeout}).
   *
   * @throws IllegalArgumentException unless longer than 0
   */
  public S queueTimeout(Duration limit) {
    values.queueTimeout = positive("queue-timeout", limit);
    return self();
  }

  /**
   * Longest run of one attempt before it is killed ({@code timeout}).
   *
   * @throws IllegalArgumentException unless longer than 0
   */
  public S timeout(Duration limit) {
    values.timeout = positive("timeout", limit);
    return self();
  }

  /**
   * GPU memory the task needs on one device, in bytes ({@code gpu-memory}, fedflow's estimate_cuda_memory).
   *
   * @throws IllegalArgumentException when negative
   */
  public S gpuMemoryBytes(long bytes) {
    values.gpuMemoryBytes = bytes("gpu-memory", bytes);
    return self();
  }

  /**
   * GPU memory the task needs on one device, written as in a spec ({@code 1200MB}, {@code 8GiB}).
   *
   * @throws IllegalArgumentException when the text is not a memory size
   */
  public S gpuMemory(String size) {
    return gpuMemoryBytes(ByteSize.parse(size));
  }

  /**
   * Whole GPUs the task uses exclusively ({@code gpus}); exclusive of {@link #gpuMemoryBytes}.
   *
   * @throws IllegalArgumentException when negative
   */
  public S gpus(int devices) {
    values.gpus = count("gpus", devices);
    return self();
  }

  /**
   * The device ({@code device}): {@code cpu} (no GPU), {@code cuda} (any GPU) or {@code cuda:N} (that GPU).
   *
   * @throws IllegalArgumentException for any other text
   */
  public S device(String device) {
    String d = Objects.requireNonNull(device, "device").strip();
    if (!DEVICE.matcher(d).matches()) {
      throw new IllegalArgumentException("'" + device + "' is not a device; use cpu, cuda (any GPU) or cuda:N such as cuda:1");
    }
    values.device = d;
    return self();
  }

  /**
   * The GPUs the task may use, by index ({@code targets}); repeats are dropped.
   *
   * @throws IllegalArgumentException when empty or an index is negative
   */
  public S targets(List<Integer> indices) {
    if (indices.isEmpty()) {
      throw new IllegalArgumentException("targets must list at least one GPU index, e.g. [0, 1]");
    }
    List<Integer> unique = new ArrayList<>();
    for (Integer i : indices) {
      if (i == null || i < 0) {
        throw new IllegalArgumentException("targets must be whole numbers >= 0 but was " + indices);
      }
      if (!unique.contains(i)) {
        unique.add(i);
      }
    }
    values.targets = List.copyOf(unique);
    return self();
  }

  /** The GPUs the task may use, by index; see {@link #targets(List)}. */
  public S targets(Integer... indices) {
    return targets(Arrays.asList(indices));
  }

  /**
   * The GPU placement policy for the task ({@code placement}), e.g. {@code best-fit} or {@code auto}.
   *
   * @throws IllegalArgumentException when no policy has that name
   */
  public S placement(String policy) {
    String p = Objects.requireNonNull(policy, "policy").strip();
    PlacementPolicies.byName(p);
    values.placement = p;
    return self();
  }

  /** Whether a retry avoids the devices where the task failed ({@code blacklist}); default true. */
  public S blacklist(boolean avoid) {
    values.blacklist = avoid;
    return self();
  }

  /**
   * Whether the task's process speaks Berth's load/train protocol ({@code two-stage}; see
   * docs/protocol.md): Berth has it load on the CPU, then hands it a device to train on. Java tasks
   * ({@link Tasks#java}) do by default; other tasks do not.
   */
  public S twoStage(boolean speaksProtocol) {
    values.twoStage = speaksProtocol;
    return self();
  }

  private static String[] ids(TaskHandle... tasks) {
    return Arrays.stream(tasks).map(TaskHandle::id).toArray(String[]::new);
  }

  private static long bytes(String key, long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException(key + " must be >= 0 bytes but was " + bytes);
    }
    return bytes;
  }

  private static int count(String key, int n) {
    if (n < 0) {
      throw new IllegalArgumentException(key + " must be a whole number >= 0 but was " + n);
    }
    return n;
  }

  private static Duration nonNegative(String key, Duration d) {
    Objects.requireNonNull(d, key);
    if (d.isNegative()) {
      throw new IllegalArgumentException(key + " must be >= 0 but was " + d);
    }
    return d;
  }

  private static Duration positive(String key, Duration d) {
    Objects.requireNonNull(d, key);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(key + " must be longer than 0 but was " + d + "; leave it out for no limit");
    }
    return d;
  }
}
