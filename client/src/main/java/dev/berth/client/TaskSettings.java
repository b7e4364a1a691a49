package dev.berth.client;

import dev.berth.core.model.TaskKey;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskValues;
import dev.berth.core.settings.InvalidValue;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The task keys of a spec, as fluent setters shared by {@link TaskBuilder}, {@link TaskTemplate}
 * and {@link GroupBuilder} (where they are the defaults of the group's tasks). Each setter parses
 * its value with the spec's own table ({@link TaskKeys}), so a key means the same here as in YAML.
 * A key left unset takes the group's value, then the configuration's ({@code scheduler.default-memory}
 * for memory, {@code scheduler.default-cuda-memory} for a GPU task that gives no GPU memory), then
 * the built-in default (1 core, priority 0, no retries, no timeouts), exactly as in a YAML spec.
 *
 * <p>Setters check their value at once and throw {@link IllegalArgumentException} stating the key and the rule.
 *
 * @param <S> the concrete builder, returned by every setter
 */
public abstract class TaskSettings<S extends TaskSettings<S>> {

  TaskValues values;

  TaskSettings() {
    this(TaskValues.NONE);
  }

  TaskSettings(TaskValues values) {
    this.values = values;
  }

  @SuppressWarnings("unchecked") // S is the subclass by construction: only this package subclasses
  private S self() {
    return (S) this;
  }

  /** Parses {@code value} for {@code key} and sets it, as a task's value is combined with its group's. */
  private S set(TaskKey<?> key, Object value) {
    try {
      values = values.with(key, value);
    } catch (InvalidValue e) {
      throw new IllegalArgumentException(message(e), e);
    }
    return self();
  }

  /** A problem as the Java API states it: {@code memory must be >= 0 bytes but was -1}. */
  static String message(InvalidValue e) {
    String where = e.path();
    return e.rule().startsWith("must ") ? where + " " + e.rule() : where + ": " + e.rule();
  }

  /**
   * Adds one environment variable ({@code env}); a task's variables are added to its group's.
   *
   * @throws IllegalArgumentException when the name is not letters, digits and {@code _}, not starting with a digit
   */
  public S env(String name, String value) {
    return set(TaskKeys.ENV, Collections.singletonMap(name, value));
  }

  /** Adds environment variables ({@code env}); see {@link #env(String, String)}. */
  public S env(Map<String, String> variables) {
    return set(TaskKeys.ENV, variables);
  }

  /**
   * Host memory reserved for the task, in bytes ({@code memory}).
   *
   * @throws IllegalArgumentException when negative
   */
  public S memoryBytes(long bytes) {
    return set(TaskKeys.MEMORY, bytes);
  }

  /**
   * Host memory reserved for the task, written as in a spec: {@code 512MiB}, {@code 2GB}, {@code 1.5GiB}.
   *
   * @throws IllegalArgumentException when the text is not a memory size
   */
  public S memory(String size) {
    return set(TaskKeys.MEMORY, size);
  }

  /**
   * Cores the task uses ({@code cpus}); may be fractional or 0. Default 1.
   *
   * @throws IllegalArgumentException when negative, NaN or above 1,000,000
   */
  public S cpus(double cores) {
    return set(TaskKeys.CPUS, cores);
  }

  /** Priority ({@code priority}): higher starts first, ties keep submission order. Default 0. */
  public S priority(int priority) {
    return set(TaskKeys.PRIORITY, priority);
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
    return set(TaskKeys.AFTER, dependency.written());
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
    return set(TaskKeys.FOLLOW, dependency.written());
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
    return set(TaskKeys.RETRIES, retries);
  }

  /**
   * Wait before the first retry ({@code retry-delay}).
   *
   * @throws IllegalArgumentException when negative
   */
  public S retryDelay(Duration delay) {
    return set(TaskKeys.RETRY_DELAY, delay);
  }

  /**
   * Factor the retry wait grows by for each further retry ({@code retry-backoff}); 1 keeps it constant.
   *
   * @throws IllegalArgumentException unless from 1 to 1000
   */
  public S retryBackoff(double factor) {
    return set(TaskKeys.RETRY_BACKOFF, factor);
  }

  /**
   * Cap on the retry wait ({@code retry-delay-max}).
   *
   * @throws IllegalArgumentException when negative
   */
  public S retryDelayMax(Duration max) {
    return set(TaskKeys.RETRY_DELAY_MAX, max);
  }

  /**
   * Longest wait for dependencies and resources before the task ends as timed out ({@code queue-timeout}).
   *
   * @throws IllegalArgumentException unless longer than 0
   */
  public S queueTimeout(Duration limit) {
    return set(TaskKeys.QUEUE_TIMEOUT, limit);
  }

  /**
   * Longest run of one attempt before it is killed ({@code timeout}).
   *
   * @throws IllegalArgumentException unless longer than 0
   */
  public S timeout(Duration limit) {
    return set(TaskKeys.TIMEOUT, limit);
  }

  /**
   * GPU memory the task needs on one device, in bytes ({@code gpu-memory}, fedflow's estimate_cuda_memory).
   *
   * @throws IllegalArgumentException when negative
   */
  public S gpuMemoryBytes(long bytes) {
    return set(TaskKeys.GPU_MEMORY, bytes);
  }

  /**
   * GPU memory the task needs on one device, written as in a spec ({@code 1200MB}, {@code 8GiB}).
   *
   * @throws IllegalArgumentException when the text is not a memory size
   */
  public S gpuMemory(String size) {
    return set(TaskKeys.GPU_MEMORY, size);
  }

  /**
   * Whole GPUs the task uses exclusively ({@code gpus}); exclusive of {@link #gpuMemoryBytes}.
   *
   * @throws IllegalArgumentException when negative
   */
  public S gpus(int devices) {
    return set(TaskKeys.GPUS, devices);
  }

  /**
   * The device ({@code device}): {@code cpu} (no GPU), {@code cuda} (any GPU) or {@code cuda:N} (that GPU).
   *
   * @throws IllegalArgumentException for any other text
   */
  public S device(String device) {
    return set(TaskKeys.DEVICE, device);
  }

  /**
   * The GPUs the task may use, by index ({@code targets}); repeats are dropped.
   *
   * @throws IllegalArgumentException when empty or an index is negative
   */
  public S targets(List<Integer> indices) {
    return set(TaskKeys.TARGETS, indices);
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
    return set(TaskKeys.PLACEMENT, policy);
  }

  /**
   * Whether a retry avoids the devices where the task failed, while others are left ({@code blacklist});
   * default true.
   */
  public S blacklist(boolean avoid) {
    return set(TaskKeys.BLACKLIST, avoid);
  }

  /**
   * Whether the task's process speaks Berth's load/train protocol ({@code two-stage}; see
   * docs/protocol.md): Berth has it load on the CPU, then hands it a device to train on. Java tasks
   * ({@link Tasks#java}) do by default; other tasks do not.
   */
  public S twoStage(boolean speaksProtocol) {
    return set(TaskKeys.TWO_STAGE, speaksProtocol);
  }

  /**
   * Whether each local attempt's memory is limited to its reservation in its cgroup ({@code enforce-memory});
   * unset, {@code scheduler.enforce-memory} decides.
   */
  public S enforceMemory(boolean limit) {
    return set(TaskKeys.ENFORCE_MEMORY, limit);
  }

  private static String[] ids(TaskHandle... tasks) {
    return Arrays.stream(tasks).map(TaskHandle::id).toArray(String[]::new);
  }
}
