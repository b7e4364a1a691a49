package dev.berth.slurm;

import dev.berth.spi.JobsOnExit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a run uses a Slurm cluster ({@code slurm.*}, or the spec's top-level {@code slurm:} block),
 * read when {@code scheduler.executor} is {@code slurm}; its keys are {@link SlurmKeys#TABLE}. How
 * many jobs the cluster holds at once ({@code slurm.max-jobs}) is core's, since core admits them.
 * The {@link SlurmExecutor} asks Slurm for these settings as they are; what it sets for itself, such
 * as its timeouts and the job arrays' limit, is its {@link SlurmTuning}. An empty text means "not set".
 *
 * @param mode every attempt a batch job, or whole allocations that Berth packs ({@code slurm.mode})
 * @param partition {@code --partition}, empty for the cluster's default ({@code slurm.partition})
 * @param account {@code --account}, empty for the default ({@code slurm.account})
 * @param qos {@code --qos}, empty for the default ({@code slurm.qos})
 * @param time {@code --time}, in whole minutes rounded up, for tasks without a timeout of their own, and
 *     for each allocation; zero leaves the partition's default ({@code slurm.time})
 * @param extraArgs more sbatch options, passed as given ({@code slurm.extra-args})
 * @param workdirRoot where task folders go, on a filesystem every node mounts at the same path; empty
 *     means the run's workdir ({@code slurm.workdir-root})
 * @param gpuMemoryGres how a share of a GPU is asked for: {@code none} (a whole GPU), {@code shard},
 *     {@code shard:10GiB} or a count GRES such as {@code gpumem:1MiB} ({@code slurm.gpu-memory-gres})
 * @param arrays whether {@link SlurmExecutor#launchAll} submits attempts that share an array key and their
 *     resources as one job array ({@code slurm.arrays})
 * @param gres the GRES of each allocation in mode {@code allocation}, e.g. {@code gpu:8} ({@code slurm.gres})
 * @param cpus cores of each allocation, 0 for the cluster's default ({@code slurm.cpus})
 * @param memoryBytes memory of each allocation, 0 for the cluster's default ({@code slurm.memory})
 * @param maxAllocations most allocations one run asks for, one after another, while tasks are left
 *     ({@code slurm.max-allocations})
 * @param onExit what Ctrl-C does to submitted jobs ({@code slurm.on-exit})
 * @param pollMax the longest wait between two squeue calls while nothing changes ({@code slurm.poll-max})
 * @param retryFor how long an sbatch or scancel that fails transiently (the controller unreachable, busy or
 *     rate-limiting) is tried again, with growing waits, before its failure counts; 0 tries once
 *     ({@code slurm.retry-for}, see {@link CommandRetry})
 */
public record SlurmConfig(
    SlurmMode mode, String partition, String account, String qos, Duration time, List<String> extraArgs,
    String workdirRoot, String gpuMemoryGres, boolean arrays, String gres, int cpus, long memoryBytes,
    int maxAllocations, JobsOnExit onExit, Duration pollMax, Duration retryFor) {

  private static final Pattern WORD = Pattern.compile("[^\\s,]*");

  /** Every default: jobs mode, nothing asked beyond the tasks' own resources. */
  public static final SlurmConfig DEFAULTS = builder().build();

  /** Validates each value, naming the key. */
  public SlurmConfig {
    Objects.requireNonNull(mode, "mode");
    word("slurm.partition", partition);
    word("slurm.account", account);
    word("slurm.qos", qos);
    Objects.requireNonNull(time, "time");
    if (time.isNegative()) {
      throw new IllegalArgumentException("slurm.time must be >= 0 but was " + time);
    }
    extraArgs = List.copyOf(extraArgs);
    for (String arg : extraArgs) {
      if (!arg.startsWith("-")) {
        throw new IllegalArgumentException(
            "slurm.extra-args must be sbatch options starting with '-', one per item, but one was '" + arg + "'");
      }
    }
    Objects.requireNonNull(workdirRoot, "workdirRoot");
    try {
      GpuMemoryGres.parse(Objects.requireNonNull(gpuMemoryGres, "gpuMemoryGres"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("slurm.gpu-memory-gres must be none, shard, shard:SIZE or NAME:SIZE such as"
          + " gpumem:1MiB but was '" + gpuMemoryGres + "'", e);
    }
    word("slurm.gres", gres.replace(",", ""));
    if (cpus < 0) {
      throw new IllegalArgumentException("slurm.cpus must be >= 0 but was " + cpus);
    }
    if (memoryBytes < 0) {
      throw new IllegalArgumentException("slurm.memory must be >= 0 but was " + memoryBytes);
    }
    if (maxAllocations < 1) {
      throw new IllegalArgumentException("slurm.max-allocations must be >= 1 but was " + maxAllocations);
    }
    Objects.requireNonNull(onExit, "onExit");
    Objects.requireNonNull(pollMax, "pollMax");
    if (pollMax.isNegative() || pollMax.isZero()) {
      throw new IllegalArgumentException("slurm.poll-max must be > 0 but was " + pollMax);
    }
    if (Objects.requireNonNull(retryFor, "retryFor").isNegative()) {
      throw new IllegalArgumentException("slurm.retry-for must be >= 0 but was " + retryFor);
    }
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings. */
  public Builder toBuilder() {
    return new Builder().mode(mode).partition(partition).account(account).qos(qos).time(time).extraArgs(extraArgs)
        .workdirRoot(workdirRoot).gpuMemoryGres(gpuMemoryGres).arrays(arrays).gres(gres).cpus(cpus)
        .memoryBytes(memoryBytes).maxAllocations(maxAllocations).onExit(onExit).pollMax(pollMax).retryFor(retryFor);
  }

  /** How a GPU-memory share is asked for: {@link #gpuMemoryGres}, parsed (validated when built). */
  public GpuMemoryGres shareGres() {
    return GpuMemoryGres.parse(gpuMemoryGres);
  }

  /**
   * Where the task folders of run {@code runName} go: {@code <workdirRoot>/<runName>} when
   * {@link #workdirRoot} is set, so runs sharing the root keep apart; else {@code runWorkdir}.
   */
  public Path taskFolderRoot(Path runWorkdir, String runName) {
    return workdirRoot.isEmpty() ? runWorkdir : Path.of(workdirRoot).resolve(runName);
  }

  /** Whether Berth packs tasks inside whole allocations. */
  public boolean allocationMode() {
    return mode == SlurmMode.ALLOCATION;
  }

  private static void word(String key, String value) {
    if (!WORD.matcher(Objects.requireNonNull(value, key)).matches()) {
      throw new IllegalArgumentException(key + " must be one word without spaces or commas but was '" + value + "'");
    }
  }

  /** Mutable builder; {@link #build()} validates. Each setter sets the {@code slurm.*} key of that name. */
  public static final class Builder {
    private SlurmMode mode = SlurmMode.JOBS;
    private String partition = "";
    private String account = "";
    private String qos = "";
    private Duration time = Duration.ZERO;
    private List<String> extraArgs = List.of();
    private String workdirRoot = "";
    private String gpuMemoryGres = "none";
    private boolean arrays = true;
    private String gres = "";
    private int cpus;
    private long memoryBytes;
    private int maxAllocations = 10;
    private JobsOnExit onExit = JobsOnExit.ASK;
    private Duration pollMax = Duration.ofSeconds(5);
    private Duration retryFor = Duration.ofMinutes(5);

    private Builder() {}

    /** {@code slurm.mode}. */
    public Builder mode(SlurmMode v) {
      mode = v;
      return this;
    }

    /** {@code slurm.partition}. */
    public Builder partition(String v) {
      partition = v;
      return this;
    }

    /** {@code slurm.account}. */
    public Builder account(String v) {
      account = v;
      return this;
    }

    /** {@code slurm.qos}. */
    public Builder qos(String v) {
      qos = v;
      return this;
    }

    /** {@code slurm.time}. */
    public Builder time(Duration v) {
      time = v;
      return this;
    }

    /** {@code slurm.extra-args}. */
    public Builder extraArgs(List<String> v) {
      extraArgs = v;
      return this;
    }

    /** {@code slurm.workdir-root}. */
    public Builder workdirRoot(String v) {
      workdirRoot = v;
      return this;
    }

    /** {@code slurm.gpu-memory-gres}. */
    public Builder gpuMemoryGres(String v) {
      gpuMemoryGres = v;
      return this;
    }

    /** {@code slurm.arrays}. */
    public Builder arrays(boolean v) {
      arrays = v;
      return this;
    }

    /** {@code slurm.gres}. */
    public Builder gres(String v) {
      gres = v;
      return this;
    }

    /** {@code slurm.cpus}. */
    public Builder cpus(int v) {
      cpus = v;
      return this;
    }

    /** {@code slurm.memory}. */
    public Builder memoryBytes(long v) {
      memoryBytes = v;
      return this;
    }

    /** {@code slurm.max-allocations}. */
    public Builder maxAllocations(int v) {
      maxAllocations = v;
      return this;
    }

    /** {@code slurm.on-exit}. */
    public Builder onExit(JobsOnExit v) {
      onExit = v;
      return this;
    }

    /** {@code slurm.poll-max}. */
    public Builder pollMax(Duration v) {
      pollMax = v;
      return this;
    }

    /** {@code slurm.retry-for}. */
    public Builder retryFor(Duration v) {
      retryFor = v;
      return this;
    }

    /** Builds and validates. */
    public SlurmConfig build() {
      return new SlurmConfig(mode, partition, account, qos, time, extraArgs, workdirRoot, gpuMemoryGres, arrays, gres,
          cpus, memoryBytes, maxAllocations, onExit, pollMax, retryFor);
    }
  }
}
