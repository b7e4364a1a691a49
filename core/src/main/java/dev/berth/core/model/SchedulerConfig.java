package dev.berth.core.model;

import dev.berth.core.gpu.PlacementPolicyName;
import java.time.Duration;
import java.util.Objects;

/**
 * Scheduler settings, named after fedflow's config keys. Built with {@link #builder()}, whose
 * defaults are fedflow's except {@code interval}, which is 1s because Berth re-decides on every
 * event and the interval only paces resource probes.
 *
 * @param maxProcess most live task processes ({@code scheduler.max-process}); 0 = unlimited
 * @param maxWaiting most two-stage tasks loaded but not training ({@code scheduler.max-waiting}); 0 = unlimited
 * @param interval how often host resources are probed ({@code scheduler.interval})
 * @param defaultMemoryBytes memory reserved for a task that gives no estimate ({@code scheduler.default-memory})
 * @param cores cores Berth may hand out ({@code scheduler.cores}); 0 = every logical CPU
 * @param cpuUtilizationLimit no new start while other processes keep the CPUs at least this busy
 *     ({@code utilization-limit.cpu}), a fraction in (0, 1]
 * @param memoryUtilizationLimit host memory utilization an admission may not push past
 *     ({@code utilization-limit.memory}), a fraction in (0, 1]
 * @param remainMemoryBytes host memory that must stay free after an admission ({@code remain-limit.memory})
 * @param loadNretry load attempts a two-stage task gets before failing ({@code scheduler.load-nretry})
 * @param trainNretry train attempts a two-stage task gets before failing ({@code scheduler.train-nretry})
 * @param defaultCudaMemoryBytes GPU memory reserved for a task that asks for a GPU but gives no
 *     estimate ({@code scheduler.default-cuda-memory})
 * @param cudaMemoryUtilizationLimit device memory utilization an admission may not push past
 *     ({@code utilization-limit.cuda-memory}), a fraction in (0, 1]
 * @param remainCudaMemoryBytes device memory that must stay free after an admission ({@code remain-limit.cuda-memory})
 * @param placement the GPU placement policy ({@code scheduler.placement})
 * @param maxPerDevice most Berth tasks on one device ({@code scheduler.max-per-device}); 0 = unlimited
 * @param putInterval least time between two placements on one device under {@code auto} ({@code scheduler.put-interval})
 * @param availableInterval how long a device must have been stable before {@code auto} uses it
 *     ({@code scheduler.available-interval})
 * @param seed seed of the random placement policies ({@code scheduler.seed})
 * @param oomGrowth factor a task's reservation grows by after it ran out of that memory ({@code scheduler.oom-growth})
 * @param learnMemory whether a task's host memory request is learned from the measured peaks of its
 *     template's finished tasks ({@code scheduler.learn-memory}; see {@code dev.berth.core.scheduling.Requests})
 * @param learnGpuMemory the same for GPU memory, under every placement policy ({@code scheduler.learn-gpu-memory})
 * @param learnAfter finished tasks a request is learned from at the least ({@code scheduler.learn-after})
 * @param executor where tasks run: {@code local} processes on this machine, or {@code slurm} batch jobs
 *     ({@code scheduler.executor}, or the spec's top-level {@code executor:})
 * @param maxJobs on a cluster, most of the run's jobs in the cluster's hands at once, pending or running
 *     ({@code slurm.max-jobs}); 0 = no limit
 * @param enforceMemory whether a local task's memory is limited to its reservation plus a margin, in
 *     its cgroup ({@code scheduler.enforce-memory})
 * @param logCapBytes the most bytes kept of each of a local attempt's output and error logs
 *     ({@code scheduler.log-cap}); beyond it the head is kept, a marker line, and the latest output
 */
public record SchedulerConfig(
    int maxProcess,
    int maxWaiting,
    Duration interval,
    long defaultMemoryBytes,
    int cores,
    double cpuUtilizationLimit,
    double memoryUtilizationLimit,
    long remainMemoryBytes,
    int loadNretry,
    int trainNretry,
    long defaultCudaMemoryBytes,
    double cudaMemoryUtilizationLimit,
    long remainCudaMemoryBytes,
    PlacementPolicyName placement,
    int maxPerDevice,
    Duration putInterval,
    Duration availableInterval,
    long seed,
    double oomGrowth,
    boolean learnMemory,
    boolean learnGpuMemory,
    int learnAfter,
    ExecutorKind executor,
    int maxJobs,
    boolean enforceMemory,
    long logCapBytes) {

  /** The configuration with every default. */
  public static final SchedulerConfig DEFAULTS = builder().build();

  /** Validates every field, naming the config key and the rule. */
  public SchedulerConfig {
    nonNegative("scheduler.max-process", maxProcess);
    if (logCapBytes < 64 * 1024) {
      throw new IllegalArgumentException("scheduler.log-cap must be at least 64KiB but was " + logCapBytes + " bytes");
    }
    nonNegative("scheduler.max-waiting", maxWaiting);
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("scheduler.interval must be > 0 but was " + interval);
    }
    nonNegative("scheduler.default-memory", defaultMemoryBytes);
    nonNegative("scheduler.cores", cores);
    fraction("utilization-limit.cpu", cpuUtilizationLimit);
    fraction("utilization-limit.memory", memoryUtilizationLimit);
    nonNegative("remain-limit.memory", remainMemoryBytes);
    positive("scheduler.load-nretry", loadNretry);
    positive("scheduler.train-nretry", trainNretry);
    nonNegative("scheduler.default-cuda-memory", defaultCudaMemoryBytes);
    fraction("utilization-limit.cuda-memory", cudaMemoryUtilizationLimit);
    nonNegative("remain-limit.cuda-memory", remainCudaMemoryBytes);
    Objects.requireNonNull(placement, "placement");
    nonNegative("scheduler.max-per-device", maxPerDevice);
    Objects.requireNonNull(putInterval, "putInterval");
    Objects.requireNonNull(availableInterval, "availableInterval");
    positive("scheduler.learn-after", learnAfter);
    if (!(oomGrowth >= 1.0 && oomGrowth <= 100)) {
      throw new IllegalArgumentException("scheduler.oom-growth must be a factor from 1 to 100 but was " + oomGrowth);
    }
    Objects.requireNonNull(executor, "executor");
    nonNegative("slurm.max-jobs", maxJobs);
    if (putInterval.isNegative() || availableInterval.isNegative()) {
      throw new IllegalArgumentException("scheduler.put-interval and scheduler.available-interval must be >= 0");
    }
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this configuration's values. */
  public Builder toBuilder() {
    return new Builder()
        .maxProcess(maxProcess)
        .maxWaiting(maxWaiting)
        .interval(interval)
        .defaultMemoryBytes(defaultMemoryBytes)
        .cores(cores)
        .cpuUtilizationLimit(cpuUtilizationLimit)
        .memoryUtilizationLimit(memoryUtilizationLimit)
        .remainMemoryBytes(remainMemoryBytes)
        .loadNretry(loadNretry)
        .trainNretry(trainNretry)
        .defaultCudaMemoryBytes(defaultCudaMemoryBytes)
        .cudaMemoryUtilizationLimit(cudaMemoryUtilizationLimit)
        .remainCudaMemoryBytes(remainCudaMemoryBytes)
        .placement(placement)
        .maxPerDevice(maxPerDevice)
        .putInterval(putInterval)
        .availableInterval(availableInterval)
        .seed(seed)
        .oomGrowth(oomGrowth)
        .learnMemory(learnMemory)
        .learnGpuMemory(learnGpuMemory)
        .learnAfter(learnAfter)
        .executor(executor)
        .maxJobs(maxJobs)
        .enforceMemory(enforceMemory)
        .logCapBytes(logCapBytes);
  }

  /** Whether tasks run as batch jobs on a Slurm cluster, which then decides where and when. */
  public boolean onCluster() {
    return executor == ExecutorKind.SLURM;
  }

  private static void nonNegative(String key, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(key + " must be >= 0 but was " + value);
    }
  }

  private static void positive(String key, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(key + " must be >= 1 but was " + value);
    }
  }

  private static void fraction(String key, double value) {
    if (!(value > 0 && value <= 1)) {
      throw new IllegalArgumentException(key + " must be a fraction in (0, 1] but was " + value);
    }
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private int maxProcess = 20;
    private int maxWaiting = 10;
    private Duration interval = Duration.ofSeconds(1);
    private long defaultMemoryBytes = 2_000_000_000L;
    private int cores;
    private double cpuUtilizationLimit = 0.8;
    private double memoryUtilizationLimit = 0.8;
    private long remainMemoryBytes = 4_000_000_000L;
    private int loadNretry = 3;
    private int trainNretry = 3;
    private long defaultCudaMemoryBytes = 2_000_000_000L;
    private double cudaMemoryUtilizationLimit = 0.8;
    private long remainCudaMemoryBytes = 2_000_000_000L;
    private PlacementPolicyName placement = PlacementPolicyName.BEST_FIT;
    private int maxPerDevice;
    private Duration putInterval = Duration.ofSeconds(5);
    private Duration availableInterval = Duration.ofSeconds(5);
    private long seed;
    private double oomGrowth = 1.5;
    private boolean learnMemory = true;
    private boolean learnGpuMemory = true;
    private int learnAfter = 3;
    private ExecutorKind executor = ExecutorKind.LOCAL;
    private int maxJobs;
    private boolean enforceMemory;
    private long logCapBytes = 1L << 30;

    /** {@code scheduler.log-cap}. */
    public Builder logCapBytes(long v) {
      logCapBytes = v;
      return this;
    }

    /** {@code scheduler.enforce-memory}. */
    public Builder enforceMemory(boolean v) {
      enforceMemory = v;
      return this;
    }

    /** {@code scheduler.executor}. */
    public Builder executor(ExecutorKind v) {
      executor = v;
      return this;
    }

    /** {@code slurm.max-jobs}. */
    public Builder maxJobs(int v) {
      maxJobs = v;
      return this;
    }

    private Builder() {}

    /** {@code scheduler.learn-memory}. */
    public Builder learnMemory(boolean v) {
      learnMemory = v;
      return this;
    }

    /** {@code scheduler.learn-gpu-memory}. */
    public Builder learnGpuMemory(boolean v) {
      learnGpuMemory = v;
      return this;
    }

    /** {@code scheduler.learn-after}. */
    public Builder learnAfter(int v) {
      learnAfter = v;
      return this;
    }

    /** {@code scheduler.oom-growth}. */
    public Builder oomGrowth(double v) {
      oomGrowth = v;
      return this;
    }

    /** {@code scheduler.default-cuda-memory}. */
    public Builder defaultCudaMemoryBytes(long v) {
      defaultCudaMemoryBytes = v;
      return this;
    }

    /** {@code utilization-limit.cuda-memory}. */
    public Builder cudaMemoryUtilizationLimit(double v) {
      cudaMemoryUtilizationLimit = v;
      return this;
    }

    /** {@code remain-limit.cuda-memory}. */
    public Builder remainCudaMemoryBytes(long v) {
      remainCudaMemoryBytes = v;
      return this;
    }

    /** {@code scheduler.placement}. */
    public Builder placement(PlacementPolicyName v) {
      placement = v;
      return this;
    }

    /** {@code scheduler.max-per-device}. */
    public Builder maxPerDevice(int v) {
      maxPerDevice = v;
      return this;
    }

    /** {@code scheduler.put-interval}. */
    public Builder putInterval(Duration v) {
      putInterval = v;
      return this;
    }

    /** {@code scheduler.available-interval}. */
    public Builder availableInterval(Duration v) {
      availableInterval = v;
      return this;
    }

    /** {@code scheduler.seed}. */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    /** {@code scheduler.max-process}. */
    public Builder maxProcess(int v) {
      maxProcess = v;
      return this;
    }

    /** {@code scheduler.max-waiting}. */
    public Builder maxWaiting(int v) {
      maxWaiting = v;
      return this;
    }

    /** {@code scheduler.interval}. */
    public Builder interval(Duration v) {
      interval = v;
      return this;
    }

    /** {@code scheduler.default-memory}. */
    public Builder defaultMemoryBytes(long v) {
      defaultMemoryBytes = v;
      return this;
    }

    /** {@code scheduler.cores}. */
    public Builder cores(int v) {
      cores = v;
      return this;
    }

    /** {@code utilization-limit.cpu}. */
    public Builder cpuUtilizationLimit(double v) {
      cpuUtilizationLimit = v;
      return this;
    }

    /** {@code utilization-limit.memory}. */
    public Builder memoryUtilizationLimit(double v) {
      memoryUtilizationLimit = v;
      return this;
    }

    /** {@code remain-limit.memory}. */
    public Builder remainMemoryBytes(long v) {
      remainMemoryBytes = v;
      return this;
    }

    /** {@code scheduler.load-nretry}. */
    public Builder loadNretry(int v) {
      loadNretry = v;
      return this;
    }

    /** {@code scheduler.train-nretry}. */
    public Builder trainNretry(int v) {
      trainNretry = v;
      return this;
    }

    /** Builds and validates. */
    public SchedulerConfig build() {
      return new SchedulerConfig(
          maxProcess, maxWaiting, interval, defaultMemoryBytes, cores, cpuUtilizationLimit,
          memoryUtilizationLimit, remainMemoryBytes, loadNretry, trainNretry, defaultCudaMemoryBytes,
          cudaMemoryUtilizationLimit, remainCudaMemoryBytes, placement, maxPerDevice, putInterval, availableInterval,
          seed, oomGrowth, learnMemory, learnGpuMemory, learnAfter, executor, maxJobs, enforceMemory, logCapBytes);
    }
  }
}
