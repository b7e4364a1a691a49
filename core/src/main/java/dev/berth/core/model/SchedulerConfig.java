package dev.berth.core.model;

import dev.berth.core.gpu.PlacementPolicyName;
import java.time.Duration;

/**
 * Scheduler settings: one value for each key of {@link SchedulerKeys}, where each key is declared
 * with its default, parser and docs. Built with {@link #builder()}, whose defaults are fedflow's
 * except {@code interval}, which is 1s because Berth re-decides on every event and the interval only
 * paces resource probes. The typed reads below are for the core's loop; {@link #get} reads any key.
 */
public final class SchedulerConfig extends KeyedSettings {

  /** The configuration with every default. */
  public static final SchedulerConfig DEFAULTS = builder().build();


  /** Validates the rules across keys, naming the config key and the rule. */
  private SchedulerConfig(Object[] values) {
    super(values);
    nonNegative(SchedulerKeys.MAX_PROCESS);
    nonNegative(SchedulerKeys.MAX_WAITING);
    if (interval().isNegative() || interval().isZero()) {
      throw new IllegalArgumentException("scheduler.interval must be > 0 but was " + interval());
    }
    nonNegative(SchedulerKeys.DEFAULT_MEMORY);
    nonNegative(SchedulerKeys.CORES);
    fraction(SchedulerKeys.CPU_UTILIZATION_LIMIT);
    fraction(SchedulerKeys.MEMORY_UTILIZATION_LIMIT);
    nonNegative(SchedulerKeys.REMAIN_MEMORY);
    positive(SchedulerKeys.LOAD_NRETRY);
    positive(SchedulerKeys.TRAIN_NRETRY);
    nonNegative(SchedulerKeys.DEFAULT_CUDA_MEMORY);
    fraction(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT);
    nonNegative(SchedulerKeys.REMAIN_CUDA_MEMORY);
    nonNegative(SchedulerKeys.MAX_PER_DEVICE);
    positive(SchedulerKeys.LEARN_AFTER);
    if (!(oomGrowth() >= 1.0 && oomGrowth() <= 100)) {
      throw new IllegalArgumentException("scheduler.oom-growth must be a factor from 1 to 100 but was " + oomGrowth());
    }
    nonNegative(SchedulerKeys.MAX_JOBS);
    if (putInterval().isNegative() || availableInterval().isNegative()) {
      throw new IllegalArgumentException("scheduler.put-interval and scheduler.available-interval must be >= 0");
    }
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder(SchedulerKeys.defaults());
  }

  /** A builder holding this configuration's values. */
  public Builder toBuilder() {
    return new Builder(values());
  }

  /** {@code key}'s value. */
  public <T> T get(ConfigKey<SchedulerConfig, Builder, T> key) {
    return key.get().apply(this);
  }


  /** Whether tasks go to a cluster ({@code scheduler.executor: slurm}) rather than run on this machine. */
  public boolean onCluster() {
    return executor() == ExecutorKind.SLURM;
  }

  /** {@link SchedulerKeys#MAX_PROCESS}. */
  public int maxProcess() {
    return get(SchedulerKeys.MAX_PROCESS);
  }

  /** {@link SchedulerKeys#MAX_WAITING}. */
  public int maxWaiting() {
    return get(SchedulerKeys.MAX_WAITING);
  }

  /** {@link SchedulerKeys#MAX_TASKS}. */
  public int maxTasks() {
    return get(SchedulerKeys.MAX_TASKS);
  }

  /** {@link SchedulerKeys#INTERVAL}. */
  public Duration interval() {
    return get(SchedulerKeys.INTERVAL);
  }

  /** {@link SchedulerKeys#DEFAULT_MEMORY}. */
  public long defaultMemoryBytes() {
    return get(SchedulerKeys.DEFAULT_MEMORY);
  }

  /** {@link SchedulerKeys#CORES}. */
  public int cores() {
    return get(SchedulerKeys.CORES);
  }

  /** {@link SchedulerKeys#LOAD_NRETRY}. */
  public int loadNretry() {
    return get(SchedulerKeys.LOAD_NRETRY);
  }

  /** {@link SchedulerKeys#TRAIN_NRETRY}. */
  public int trainNretry() {
    return get(SchedulerKeys.TRAIN_NRETRY);
  }

  /** {@link SchedulerKeys#CPU_UTILIZATION_LIMIT}. */
  public double cpuUtilizationLimit() {
    return get(SchedulerKeys.CPU_UTILIZATION_LIMIT);
  }

  /** {@link SchedulerKeys#MEMORY_UTILIZATION_LIMIT}. */
  public double memoryUtilizationLimit() {
    return get(SchedulerKeys.MEMORY_UTILIZATION_LIMIT);
  }

  /** {@link SchedulerKeys#REMAIN_MEMORY}. */
  public long remainMemoryBytes() {
    return get(SchedulerKeys.REMAIN_MEMORY);
  }

  /** {@link SchedulerKeys#DEFAULT_CUDA_MEMORY}. */
  public long defaultCudaMemoryBytes() {
    return get(SchedulerKeys.DEFAULT_CUDA_MEMORY);
  }

  /** {@link SchedulerKeys#CUDA_MEMORY_UTILIZATION_LIMIT}. */
  public double cudaMemoryUtilizationLimit() {
    return get(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT);
  }

  /** {@link SchedulerKeys#REMAIN_CUDA_MEMORY}. */
  public long remainCudaMemoryBytes() {
    return get(SchedulerKeys.REMAIN_CUDA_MEMORY);
  }

  /** {@link SchedulerKeys#PLACEMENT}. */
  public PlacementPolicyName placement() {
    return get(SchedulerKeys.PLACEMENT);
  }

  /** {@link SchedulerKeys#MAX_PER_DEVICE}. */
  public int maxPerDevice() {
    return get(SchedulerKeys.MAX_PER_DEVICE);
  }

  /** {@link SchedulerKeys#PUT_INTERVAL}. */
  public Duration putInterval() {
    return get(SchedulerKeys.PUT_INTERVAL);
  }

  /** {@link SchedulerKeys#AVAILABLE_INTERVAL}. */
  public Duration availableInterval() {
    return get(SchedulerKeys.AVAILABLE_INTERVAL);
  }

  /** {@link SchedulerKeys#SEED}. */
  public long seed() {
    return get(SchedulerKeys.SEED);
  }

  /** {@link SchedulerKeys#OOM_GROWTH}. */
  public double oomGrowth() {
    return get(SchedulerKeys.OOM_GROWTH);
  }

  /** {@link SchedulerKeys#LEARN_MEMORY}. */
  public boolean learnMemory() {
    return get(SchedulerKeys.LEARN_MEMORY);
  }

  /** {@link SchedulerKeys#LEARN_GPU_MEMORY}. */
  public boolean learnGpuMemory() {
    return get(SchedulerKeys.LEARN_GPU_MEMORY);
  }

  /** {@link SchedulerKeys#LEARN_AFTER}. */
  public int learnAfter() {
    return get(SchedulerKeys.LEARN_AFTER);
  }

  /** {@link SchedulerKeys#EXECUTOR}. */
  public ExecutorKind executor() {
    return get(SchedulerKeys.EXECUTOR);
  }

  /** {@link SchedulerKeys#MAX_JOBS}. */
  public int maxJobs() {
    return get(SchedulerKeys.MAX_JOBS);
  }

  @Override
  protected SettingsTable<?, ?> table() {
    return SchedulerKeys.TABLE;
  }

  private void nonNegative(ConfigKey<SchedulerConfig, Builder, ? extends Number> key) {
    long value = get(key).longValue();
    if (value < 0) {
      throw new IllegalArgumentException(key.key() + " must be >= 0 but was " + value);
    }
  }

  private void positive(ConfigKey<SchedulerConfig, Builder, ? extends Number> key) {
    long value = get(key).longValue();
    if (value < 1) {
      throw new IllegalArgumentException(key.key() + " must be >= 1 but was " + value);
    }
  }

  private void fraction(ConfigKey<SchedulerConfig, Builder, Double> key) {
    double value = get(key);
    if (!(value > 0 && value <= 1)) {
      throw new IllegalArgumentException(key.key() + " must be a fraction in (0, 1] but was " + value);
    }
  }

  /** Builds a {@link SchedulerConfig}, one key at a time. */
  public static final class Builder extends KeyedSettings.Builder<Builder> {

    private Builder(Object[] values) {
      super(values);
    }

    /**
     * The configuration.
     *
     * @throws IllegalArgumentException naming the key and the rule a value breaks
     */
    public SchedulerConfig build() {
      return new SchedulerConfig(values());
    }
  }
}
