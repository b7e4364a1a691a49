package dev.berth.slurm;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.KeyedSettings;
import dev.berth.core.model.SettingsTable;
import dev.berth.spi.JobsOnExit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a run uses a Slurm cluster ({@code slurm.*}, or the spec's top-level {@code slurm:} block),
 * read when {@code scheduler.executor} is {@code slurm}: one value for each key of {@link SlurmKeys},
 * where each key is declared with its default, parser and docs. How many jobs the cluster holds at
 * once ({@code slurm.max-jobs}) is core's, since core admits them. The {@link SlurmExecutor} asks Slurm
 * for these settings as they are; what it sets for itself, such as its timeouts and the job arrays'
 * limit, is its {@link SlurmTuning}. An empty text means "not set". The typed reads below are for the
 * executor; {@link #get} reads any key.
 */
public final class SlurmConfig extends KeyedSettings {

  private static final Pattern WORD = Pattern.compile("[^\\s,]*");

  /** Every default: jobs mode, nothing asked beyond the tasks' own resources. */
  public static final SlurmConfig DEFAULTS = builder().build();

  /** {@link #signal()} as parsed when the value was checked: each submission asks for it. */
  private final Optional<JobSignal> jobSignal;

  /** Validates each value, naming the key. */
  private SlurmConfig(Object[] values) {
    super(values);
    word("slurm.partition", partition());
    word("slurm.account", account());
    word("slurm.qos", qos());
    if (time().isNegative()) {
      throw new IllegalArgumentException("slurm.time must be >= 0 but was " + time());
    }
    if (constraint().chars().anyMatch(c -> c <= ' ')) {
      throw new IllegalArgumentException("slurm.constraint must be node features without spaces, such as a100&nvlink,"
          + " but was '" + constraint() + "'");
    }
    jobSignal = JobSignal.parse(signal()); // names the key itself
    for (String arg : extraArgs()) {
      if (!arg.startsWith("-")) {
        throw new IllegalArgumentException(
            "slurm.extra-args must be sbatch options starting with '-', one per item, but one was '" + arg + "'");
      }
    }
    try {
      GpuMemoryGres.parse(gpuMemoryGres());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("slurm.gpu-memory-gres must be none, shard, shard:SIZE or NAME:SIZE such as"
          + " gpumem:1MiB but was '" + gpuMemoryGres() + "'", e);
    }
    word("slurm.gres", gres().replace(",", ""));
    if (cpus() < 0) {
      throw new IllegalArgumentException("slurm.cpus must be >= 0 but was " + cpus());
    }
    if (memoryBytes() < 0) {
      throw new IllegalArgumentException("slurm.memory must be >= 0 but was " + memoryBytes());
    }
    if (maxAllocations() < 1) {
      throw new IllegalArgumentException("slurm.max-allocations must be >= 1 but was " + maxAllocations());
    }
    if (pollMax().isNegative() || pollMax().isZero()) {
      throw new IllegalArgumentException("slurm.poll-max must be > 0 but was " + pollMax());
    }
    if (retryFor().isNegative()) {
      throw new IllegalArgumentException("slurm.retry-for must be >= 0 but was " + retryFor());
    }
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder(SlurmKeys.defaults());
  }

  /** A builder holding these settings. */
  public Builder toBuilder() {
    return new Builder(values());
  }

  /** {@code key}'s value. */
  public <T> T get(ConfigKey<SlurmConfig, Builder, T> key) {
    return key.get().apply(this);
  }


  /** Every attempt a batch job, or whole allocations that Berth packs: {@link SlurmKeys#MODE}. */
  public SlurmMode mode() {
    return get(SlurmKeys.MODE);
  }

  /** {@code --partition}, empty for the cluster's default: {@link SlurmKeys#PARTITION}. */
  public String partition() {
    return get(SlurmKeys.PARTITION);
  }

  /** {@code --account}, empty for the default: {@link SlurmKeys#ACCOUNT}. */
  public String account() {
    return get(SlurmKeys.ACCOUNT);
  }

  /** {@code --qos}, empty for the default: {@link SlurmKeys#QOS}. */
  public String qos() {
    return get(SlurmKeys.QOS);
  }

  /**
   * {@code --time}, in whole minutes rounded up, for tasks without a timeout of their own, and for each
   * allocation; zero leaves the partition's default: {@link SlurmKeys#TIME}.
   */
  public Duration time() {
    return get(SlurmKeys.TIME);
  }

  /** {@code --constraint}, empty for any node: {@link SlurmKeys#CONSTRAINT}. */
  public String constraint() {
    return get(SlurmKeys.CONSTRAINT);
  }

  /** Whether the jobs ask for {@code --requeue}: {@link SlurmKeys#REQUEUE}. */
  public boolean requeue() {
    return get(SlurmKeys.REQUEUE);
  }

  /** The signal before the time limit as written ({@code [SIG@]DURATION}), empty for none: {@link SlurmKeys#SIGNAL}. */
  public String signal() {
    return get(SlurmKeys.SIGNAL);
  }

  /** {@link #signal()}, parsed (validated when built); empty for none. */
  public Optional<JobSignal> jobSignal() {
    return jobSignal;
  }

  /** More sbatch options, passed as given: {@link SlurmKeys#EXTRA_ARGS}. */
  public List<String> extraArgs() {
    return get(SlurmKeys.EXTRA_ARGS);
  }

  /**
   * Where task folders go, on a filesystem every node mounts at the same path; empty means the run's
   * workdir: {@link SlurmKeys#WORKDIR_ROOT}.
   */
  public String workdirRoot() {
    return get(SlurmKeys.WORKDIR_ROOT);
  }

  /**
   * How a share of a GPU is asked for: {@code none} (a whole GPU), {@code shard}, {@code shard:10GiB} or a
   * count GRES such as {@code gpumem:1MiB}: {@link SlurmKeys#GPU_MEMORY_GRES}.
   */
  public String gpuMemoryGres() {
    return get(SlurmKeys.GPU_MEMORY_GRES);
  }

  /**
   * Whether {@link SlurmExecutor#launchAll} submits attempts that share an array key and their resources as
   * one job array: {@link SlurmKeys#ARRAYS}.
   */
  public boolean arrays() {
    return get(SlurmKeys.ARRAYS);
  }

  /** The GRES of each allocation in mode {@code allocation}, e.g. {@code gpu:8}: {@link SlurmKeys#GRES}. */
  public String gres() {
    return get(SlurmKeys.GRES);
  }

  /** Cores of each allocation, 0 for the cluster's default: {@link SlurmKeys#CPUS}. */
  public int cpus() {
    return get(SlurmKeys.CPUS);
  }

  /** Memory of each allocation, 0 for the cluster's default: {@link SlurmKeys#MEMORY}. */
  public long memoryBytes() {
    return get(SlurmKeys.MEMORY);
  }

  /**
   * Most allocations one run asks for, one after another, while tasks are left:
   * {@link SlurmKeys#MAX_ALLOCATIONS}.
   */
  public int maxAllocations() {
    return get(SlurmKeys.MAX_ALLOCATIONS);
  }

  /** What Ctrl-C does to submitted jobs: {@link SlurmKeys#ON_EXIT}. */
  public JobsOnExit onExit() {
    return get(SlurmKeys.ON_EXIT);
  }

  /** The longest wait between two squeue calls while nothing changes: {@link SlurmKeys#POLL_MAX}. */
  public Duration pollMax() {
    return get(SlurmKeys.POLL_MAX);
  }

  /**
   * How long an sbatch or scancel that fails transiently (the controller unreachable, busy or
   * rate-limiting) is tried again, with growing waits, before its failure counts; 0 tries once:
   * {@link SlurmKeys#RETRY_FOR}, see {@link CommandRetry}.
   */
  public Duration retryFor() {
    return get(SlurmKeys.RETRY_FOR);
  }

  /** How a GPU-memory share is asked for: {@link #gpuMemoryGres}, parsed (validated when built). */
  public GpuMemoryGres shareGres() {
    return GpuMemoryGres.parse(gpuMemoryGres());
  }

  /**
   * Where the task folders of run {@code runName} go: {@code <workdirRoot>/<runName>} when
   * {@link #workdirRoot} is set, so runs sharing the root keep apart; else {@code runWorkdir}.
   */
  public Path taskFolderRoot(Path runWorkdir, String runName) {
    return workdirRoot().isEmpty() ? runWorkdir : Path.of(workdirRoot()).resolve(runName);
  }

  /** Whether Berth packs tasks inside whole allocations. */
  public boolean allocationMode() {
    return mode() == SlurmMode.ALLOCATION;
  }

  private static void word(String key, String value) {
    if (!WORD.matcher(Objects.requireNonNull(value, key)).matches()) {
      throw new IllegalArgumentException(key + " must be one word without spaces or commas but was '" + value + "'");
    }
  }

  @Override
  protected SettingsTable<?, ?> table() {
    return SlurmKeys.TABLE;
  }

  /** Builds a {@link SlurmConfig}, one key at a time; {@link #build()} validates. */
  public static final class Builder extends KeyedSettings.Builder<Builder> {

    private Builder(Object[] values) {
      super(values);
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException naming the key and the rule a value breaks
     */
    public SlurmConfig build() {
      return new SlurmConfig(values());
    }
  }
}
