package dev.berth.slurm;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What the {@link SlurmExecutor} sets for itself beside the run's {@link SlurmConfig}: no key of its
 * own, but derived from the run ({@link #forRun}) or, in tests, made faster ({@code with...}).
 *
 * @param pollInitial how soon the tracker's next round comes after a submission or a cancellation
 *     (default 200 ms, or {@link SlurmConfig#pollMax()} when that is shorter); the rounds after it are
 *     ten times as far apart (2 s), doubling up to {@code pollMax} while no job ends ({@link Backoff})
 * @param commandTimeout the longest sbatch, squeue, sacct or scancel may take (default 60 s)
 * @param lostAfter how long a job may be unknown to squeue and sacct, with no exit-code file, before
 *     it is reported lost (default 2 min)
 * @param checkPrograms whether launch fails at once when the program is not found on this machine
 *     (default true; turn off when the nodes have software the submitting machine does not)
 * @param arrayMaxRunning the most elements of one job array running at once, {@code %K} in
 *     {@code --array=0-N%K}: the run's {@code scheduler.max-process}; 0 for no limit (the default)
 * @param parallelSubmissions how many sbatch calls of one {@link SlurmExecutor#launchAll} run at once,
 *     since each waits for the controller's answer (default 8; 1 submits in order)
 */
public record SlurmTuning(Duration pollInitial, Duration commandTimeout, Duration lostAfter, boolean checkPrograms,
    int arrayMaxRunning, int parallelSubmissions) {

  /** The defaults, with no limit on job arrays. */
  public static final SlurmTuning DEFAULTS =
      new SlurmTuning(Duration.ofMillis(200), Duration.ofSeconds(60), Duration.ofMinutes(2), true, 0, 8);

  /** Validates every field. */
  public SlurmTuning {
    for (Duration d : List.of(pollInitial, commandTimeout, lostAfter)) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("slurm durations must be > 0 but one was " + d);
      }
    }
    if (parallelSubmissions < 1) {
      throw new IllegalArgumentException("parallelSubmissions must be >= 1 but was " + parallelSubmissions);
    }
    if (arrayMaxRunning < 0) {
      throw new IllegalArgumentException("arrayMaxRunning must be >= 0 but was " + arrayMaxRunning);
    }
  }

  /**
   * The defaults for a run with {@code slurm}: the first wait no longer than its {@code pollMax}, and
   * {@code maxRunning} as the job arrays' {@code %K}.
   *
   * @param maxRunning the most elements of one job array running at once (the run's
   *     {@code scheduler.max-process}); 0 for no limit
   */
  public static SlurmTuning forRun(SlurmConfig slurm, int maxRunning) {
    Duration initial = DEFAULTS.pollInitial.compareTo(slurm.pollMax()) > 0 ? slurm.pollMax() : DEFAULTS.pollInitial;
    return DEFAULTS.withPollInitial(initial).withArrayMaxRunning(maxRunning);
  }

  /** These, with the first wait between squeue calls {@code initial}. */
  public SlurmTuning withPollInitial(Duration initial) {
    return new SlurmTuning(Objects.requireNonNull(initial, "pollInitial"), commandTimeout, lostAfter, checkPrograms,
        arrayMaxRunning, parallelSubmissions);
  }

  /** These, with the longest a Slurm command may take {@code timeout}. */
  public SlurmTuning withCommandTimeout(Duration timeout) {
    return new SlurmTuning(pollInitial, Objects.requireNonNull(timeout, "commandTimeout"), lostAfter, checkPrograms,
        arrayMaxRunning, parallelSubmissions);
  }

  /** These, with a job unknown to Slurm reported lost {@code after} that long. */
  public SlurmTuning withLostAfter(Duration after) {
    return new SlurmTuning(pollInitial, commandTimeout, Objects.requireNonNull(after, "lostAfter"), checkPrograms,
        arrayMaxRunning, parallelSubmissions);
  }

  /** These, with launch checking that the program exists on this machine or not. */
  public SlurmTuning withCheckPrograms(boolean check) {
    return new SlurmTuning(pollInitial, commandTimeout, lostAfter, check, arrayMaxRunning, parallelSubmissions);
  }

  /** These, with at most {@code max} elements of one job array running at once; 0 for no limit. */
  public SlurmTuning withArrayMaxRunning(int max) {
    return new SlurmTuning(pollInitial, commandTimeout, lostAfter, checkPrograms, max, parallelSubmissions);
  }

  /** These, with {@code n} sbatch calls of one launch running at once. */
  public SlurmTuning withParallelSubmissions(int n) {
    return new SlurmTuning(pollInitial, commandTimeout, lostAfter, checkPrograms, arrayMaxRunning, n);
  }
}
