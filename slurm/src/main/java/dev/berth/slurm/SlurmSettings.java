package dev.berth.slurm;

import dev.berth.core.model.RunSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How Berth uses a Slurm cluster. Built with {@link #builder()}; {@link #defaults()} asks for nothing
 * beyond the task's own resources.
 *
 * @param partition {@code --partition}, if set
 * @param account {@code --account}, if set
 * @param qos {@code --qos}, if set
 * @param time {@code --time} for tasks without a timeout of their own (Slurm's forms: {@code 30},
 *     {@code 2:00:00}, {@code 1-00:00:00}, ...); empty leaves the partition's default
 * @param extraArgs more sbatch options, passed as given before the script, e.g. {@code --constraint=a100}
 * @param gpuMemoryGres how a GPU-memory share is asked for (default {@link GpuMemoryGres#NONE}: a whole GPU)
 * @param workdirRoot where task folders go ({@code slurm.workdir-root}); it must be on a filesystem every
 *     node mounts at the same path; empty means the run's workdir, see {@link #taskFolderRoot(Path, String)}
 * @param pollInitial the tracker's first wait between squeue calls (default 200 ms)
 * @param pollMax the longest wait, reached by doubling while nothing changes (default 5 s)
 * @param commandTimeout the longest sbatch, squeue, sacct or scancel may take (default 60 s)
 * @param lostAfter how long a job may be unknown to squeue and sacct, with no exit-code file, before
 *     it is reported lost (default 2 min)
 * @param retryFor how long an sbatch or scancel that fails transiently (the controller unreachable,
 *     busy or rate-limiting) is tried again, with growing waits, before its failure counts (default
 *     5 min; 0 tries once) ({@code slurm.retry-for}, see {@link CommandRetry})
 * @param checkPrograms whether launch fails at once when the program is not found on this machine
 *     (default true; turn off when the nodes have software the submitting machine does not)
 * @param arrays whether {@link SlurmExecutor#launchAll} submits attempts that share an array key and
 *     their resources as one job array (default true)
 * @param arrayMaxRunning the most elements of one job array running at once, {@code %K} in
 *     {@code --array=0-N%K}; 0 for no limit (the default)
 * @param parallelSubmissions how many sbatch calls of one {@link SlurmExecutor#launchAll} run at once,
 *     since each waits for the controller's answer (default 8; 1 submits in order)
 */
public record SlurmSettings(
    Optional<String> partition,
    Optional<String> account,
    Optional<String> qos,
    Optional<String> time,
    List<String> extraArgs,
    GpuMemoryGres gpuMemoryGres,
    Optional<Path> workdirRoot,
    Duration pollInitial,
    Duration pollMax,
    Duration commandTimeout,
    Duration lostAfter,
    Duration retryFor,
    boolean checkPrograms,
    boolean arrays,
    int arrayMaxRunning,
    int parallelSubmissions) {

  private static final Pattern WORD = Pattern.compile("[^\\s]+");
  private static final Pattern TIME = Pattern.compile(
      "[0-9]+(:[0-9]+){0,2}|[0-9]+-[0-9]+(:[0-9]+){0,2}|UNLIMITED|INFINITE|unlimited|infinite");

  /** Validates every field. */
  public SlurmSettings {
    checkWord("partition", partition);
    checkWord("account", account);
    checkWord("qos", qos);
    Objects.requireNonNull(time, "time");
    time.ifPresent(t -> {
      if (!TIME.matcher(t).matches()) {
        throw new IllegalArgumentException("slurm time '" + t + "' must be minutes, H:MM:SS or D-HH:MM:SS");
      }
    });
    extraArgs = List.copyOf(extraArgs);
    Objects.requireNonNull(gpuMemoryGres, "gpuMemoryGres");
    Objects.requireNonNull(workdirRoot, "workdirRoot");
    for (Duration d : List.of(pollInitial, pollMax, commandTimeout, lostAfter)) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("slurm durations must be > 0 but one was " + d);
      }
    }
    if (Objects.requireNonNull(retryFor, "retryFor").isNegative()) {
      throw new IllegalArgumentException("slurm retry-for must be >= 0 but was " + retryFor);
    }
    if (pollMax.compareTo(pollInitial) < 0) {
      throw new IllegalArgumentException("pollMax " + pollMax + " must be >= pollInitial " + pollInitial);
    }
    if (parallelSubmissions < 1) {
      throw new IllegalArgumentException("parallelSubmissions must be >= 1 but was " + parallelSubmissions);
    }
    if (arrayMaxRunning < 0) {
      throw new IllegalArgumentException("arrayMaxRunning must be >= 0 but was " + arrayMaxRunning);
    }
  }

  /**
   * The settings a run's {@code slurm.*} configuration asks for, with the default timings: the time
   * limit in whole minutes rounded up, the GPU-memory GRES parsed, and {@code maxRunning} as the job
   * arrays' {@code %K}.
   *
   * @param maxRunning the most elements of one job array running at once (the run's
   *     {@code scheduler.max-process}); 0 for no limit
   */
  public static SlurmSettings from(SlurmConfig config, int maxRunning) {
    Builder b = builder().extraArgs(config.extraArgs())
        .gpuMemoryGres(GpuMemoryGres.parse(config.gpuMemoryGres())).arrays(config.arrays())
        .arrayMaxRunning(maxRunning).retryFor(config.retryFor());
    nonEmpty(config.partition()).ifPresent(b::partition);
    nonEmpty(config.account()).ifPresent(b::account);
    nonEmpty(config.qos()).ifPresent(b::qos);
    if (!config.time().isZero()) {
      b.time(Long.toString(SbatchCommand.minutes(config.time())));
    }
    nonEmpty(config.workdirRoot()).ifPresent(root -> b.workdirRoot(Path.of(root)));
    Duration initial = b.pollInitial.compareTo(config.pollMax()) > 0 ? config.pollMax() : b.pollInitial;
    return b.poll(initial, config.pollMax()).build();
  }

  /** {@link #from(SlurmConfig, int)} with {@code run}'s {@code slurm.*} and {@code scheduler.max-process}. */
  public static SlurmSettings from(RunSpec run) {
    return from(SlurmKeys.TABLE.of(run), run.config().maxProcess());
  }

  /** Nothing beyond the task's own resources, with the default timings. */
  public static SlurmSettings defaults() {
    return builder().build();
  }

  /** A builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.partition = partition;
    b.account = account;
    b.qos = qos;
    b.time = time;
    b.extraArgs = extraArgs;
    b.gpuMemoryGres = gpuMemoryGres;
    b.workdirRoot = workdirRoot;
    b.pollInitial = pollInitial;
    b.pollMax = pollMax;
    b.commandTimeout = commandTimeout;
    b.lostAfter = lostAfter;
    b.retryFor = retryFor;
    b.checkPrograms = checkPrograms;
    b.arrays = arrays;
    b.arrayMaxRunning = arrayMaxRunning;
    b.parallelSubmissions = parallelSubmissions;
    return b;
  }

  /**
   * Where the task folders of run {@code runName} go: {@code <workdirRoot>/<runName>} when
   * {@link #workdirRoot} is set, so runs sharing the root keep apart; else {@code runWorkdir}.
   */
  public Path taskFolderRoot(Path runWorkdir, String runName) {
    return workdirRoot.map(root -> root.resolve(runName)).orElse(runWorkdir);
  }

  private static Optional<String> nonEmpty(String value) {
    return value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static void checkWord(String what, Optional<String> value) {
    Objects.requireNonNull(value, what);
    if (value.isPresent() && !WORD.matcher(value.get()).matches()) {
      throw new IllegalArgumentException("slurm " + what + " '" + value.get() + "' must be one word");
    }
  }

  /** Builder for {@link SlurmSettings}; each setter's default is given on the record. */
  public static final class Builder {
    private Optional<String> partition = Optional.empty();
    private Optional<String> account = Optional.empty();
    private Optional<String> qos = Optional.empty();
    private Optional<String> time = Optional.empty();
    private List<String> extraArgs = List.of();
    private GpuMemoryGres gpuMemoryGres = GpuMemoryGres.NONE;
    private Optional<Path> workdirRoot = Optional.empty();
    private Duration pollInitial = Duration.ofMillis(200);
    private Duration pollMax = Duration.ofSeconds(5);
    private Duration commandTimeout = Duration.ofSeconds(60);
    private Duration lostAfter = Duration.ofMinutes(2);
    private Duration retryFor = Duration.ofMinutes(5);
    private boolean checkPrograms = true;
    private boolean arrays = true;
    private int arrayMaxRunning;
    private int parallelSubmissions = 8;

    private Builder() {}

    /** {@code --partition}. */
    public Builder partition(String value) {
      this.partition = Optional.of(value);
      return this;
    }

    /** {@code --account}. */
    public Builder account(String value) {
      this.account = Optional.of(value);
      return this;
    }

    /** {@code --qos}. */
    public Builder qos(String value) {
      this.qos = Optional.of(value);
      return this;
    }

    /** {@code --time} for tasks without a timeout. */
    public Builder time(String value) {
      this.time = Optional.of(value);
      return this;
    }

    /** More sbatch options. */
    public Builder extraArgs(List<String> args) {
      this.extraArgs = List.copyOf(args);
      return this;
    }

    /** How GPU-memory shares are asked for. */
    public Builder gpuMemoryGres(GpuMemoryGres gres) {
      this.gpuMemoryGres = gres;
      return this;
    }

    /** Where task folders go. */
    public Builder workdirRoot(Path root) {
      this.workdirRoot = Optional.of(root);
      return this;
    }

    /** The tracker's first and longest waits between squeue calls. */
    public Builder poll(Duration initial, Duration max) {
      this.pollInitial = initial;
      this.pollMax = max;
      return this;
    }

    /** The longest a Slurm command may take. */
    public Builder commandTimeout(Duration timeout) {
      this.commandTimeout = timeout;
      return this;
    }

    /** How long a job may be unknown to Slurm before it is reported lost. */
    public Builder lostAfter(Duration after) {
      this.lostAfter = after;
      return this;
    }

    /** How long a transient sbatch or scancel failure is tried again; 0 tries once. */
    public Builder retryFor(Duration retryFor) {
      this.retryFor = retryFor;
      return this;
    }

    /** Whether launch checks that the program exists on this machine. */
    public Builder checkPrograms(boolean check) {
      this.checkPrograms = check;
      return this;
    }

    /** Whether attempts that share an array key and their resources become one job array. */
    public Builder arrays(boolean enabled) {
      this.arrays = enabled;
      return this;
    }

    /** The most elements of one job array running at once; 0 for no limit. */
    public Builder arrayMaxRunning(int max) {
      this.arrayMaxRunning = max;
      return this;
    }

    /** How many sbatch calls of one launch run at once. */
    public Builder parallelSubmissions(int n) {
      this.parallelSubmissions = n;
      return this;
    }

    /** The validated settings. */
    public SlurmSettings build() {
      return new SlurmSettings(partition, account, qos, time, extraArgs, gpuMemoryGres, workdirRoot, pollInitial,
          pollMax, commandTimeout, lostAfter, retryFor, checkPrograms, arrays, arrayMaxRunning, parallelSubmissions);
    }
  }
}
