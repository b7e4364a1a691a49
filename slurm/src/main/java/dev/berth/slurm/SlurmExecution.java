package dev.berth.slurm;

import dev.berth.core.lifecycle.ClusterAccounting;
import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.model.TaskId;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One attempt running as a Slurm job (or array element). It has no local process, so {@link #pid()}
 * is -1; {@link #jobId()} names the job, {@link #state()} is the last state the tracker saw and
 * {@link #ending()} says how it ended once the exit has been reported; {@link #verdict()} turns that
 * ending into what the engine needs to know beyond the exit code.
 */
public final class SlurmExecution implements Execution {

  private final SlurmJobId jobId;
  private final TaskId task;
  private final int attempt;
  private final Path exitCodeFile;
  private final Path slurmLog;
  private final long slurmLogOffset;
  private final ExitListener listener;
  private final Consumer<SlurmExecution> canceller;
  private final Object owner;
  private volatile boolean cancelRequested;
  private volatile SlurmState state = SlurmState.PENDING;
  /** Whether a poll has reported the job's state at least once. */
  private volatile boolean observed;
  private final AtomicReference<SlurmEnding> ending = new AtomicReference<>();
  /** What Slurm's accounting measured, set with the ending. */
  private volatile MeasuredUsage usage = MeasuredUsage.NONE;
  /** What Slurm's accounting recorded of the job, set with the ending. */
  private volatile Optional<ClusterAccounting> accounting = Optional.empty();
  /** When a poll first saw the job in a terminal state, while it waits for sacct's measurements. */
  private volatile Optional<Instant> endSeenSince = Optional.empty();
  /** When the tracker first found the job unknown to squeue, if it is; written by one poll round at a time. */
  private volatile Optional<Instant> missingSince = Optional.empty();

  SlurmExecution(
      SlurmJobId jobId, TaskId task, int attempt, Path exitCodeFile, Path slurmLog, long slurmLogOffset,
      ExitListener listener, Consumer<SlurmExecution> canceller, Object owner) {
    this.jobId = jobId;
    this.task = task;
    this.attempt = attempt;
    this.exitCodeFile = exitCodeFile;
    this.slurmLog = slurmLog;
    this.slurmLogOffset = slurmLogOffset;
    this.listener = listener;
    this.canceller = canceller;
    this.owner = owner;
  }

  /** The Slurm job, e.g. {@code 27} or {@code 23_1}. */
  public SlurmJobId jobId() {
    return jobId;
  }

  /** The task this attempt belongs to. */
  public TaskId task() {
    return task;
  }

  /** The attempt number. */
  public int attempt() {
    return attempt;
  }

  /** The last state Slurm reported; {@link SlurmState#PENDING} before the first report. */
  public SlurmState state() {
    return state;
  }

  /** How the job ended; empty while it runs. Set before the exit listener is called. */
  public Optional<SlurmEnding> ending() {
    return Optional.ofNullable(ending.get());
  }

  /** The job id, e.g. {@code 23} or {@code 23_1}. */
  @Override
  public Optional<String> clusterId() {
    return Optional.of(jobId.value());
  }

  /**
   * Once the exit was reported, what Slurm said beyond the exit code ({@link SlurmEnding#verdict}):
   * empty for a program that ended on its own and for a job cancelled through {@link #terminate};
   * {@code CANCELLED} only for a cancellation this Berth did not ask for.
   */
  @Override
  public Optional<ClusterVerdict> verdict() {
    return ending().flatMap(e -> e.verdict(cancelRequested));
  }

  /**
   * Once the exit was reported: what Slurm's accounting measured for the job, as exact figures: the
   * largest MaxRSS of its steps and its TotalCPU. Nothing when sacct had no record of them (a cluster
   * without accounting, or one that lagged for longer than the tracker waits).
   */
  @Override
  public MeasuredUsage usage() {
    return ending.get() == null ? MeasuredUsage.NONE : usage;
  }

  /**
   * Once the exit was reported: sacct's record of the job (submit, start and end times, nodes, state,
   * exit code), when sacct had one.
   */
  @Override
  public Optional<ClusterAccounting> accounting() {
    return ending.get() == null ? Optional.empty() : accounting;
  }

  /** Always -1: the process runs on a cluster node. */
  @Override
  public long pid() {
    return -1;
  }

  @Override
  public boolean isAlive() {
    return ending.get() == null;
  }

  /**
   * Cancels the job with {@code scancel}, which returns at once. Slurm sends SIGTERM and, after the
   * cluster's {@code KillWait}, SIGKILL, so the grace period is the cluster's, not {@code graceMillis}.
   * The exit is reported as {@link SlurmOutcome#CANCELLED} with exit code 143.
   */
  @Override
  public void terminate(long graceMillis) {
    if (isAlive()) {
      cancelRequested = true;
      canceller.accept(this);
    }
  }

  @Override
  public String toString() {
    return "Slurm job " + jobId + " (task " + task + " attempt " + attempt + ", " + state + ")";
  }

  /** Whether {@code executor} started (or reattached) this attempt. */
  boolean startedBy(Object executor) {
    return owner == executor;
  }

  Path exitCodeFile() {
    return exitCodeFile;
  }

  Path slurmLog() {
    return slurmLog;
  }

  long slurmLogOffset() {
    return slurmLogOffset;
  }

  ExitListener listener() {
    return listener;
  }

  /** Records a reported state. */
  void observe(SlurmState seen) {
    state = seen;
    observed = true;
  }

  /** Whether the last poll that listed the job saw it pending (not merely the state it starts with). */
  boolean lastSeenPending() {
    return observed && state == SlurmState.PENDING;
  }

  /** Records what Slurm's accounting measured and recorded of the job, before the ending is set. */
  void measured(MeasuredUsage measured, Optional<ClusterAccounting> recorded) {
    usage = measured;
    accounting = recorded;
  }

  /** Sets the ending; false when it was already set, so an exit is reported once. */
  boolean end(SlurmEnding how) {
    if (ending.compareAndSet(null, how)) {
      if (how.state() != SlurmState.UNKNOWN) {
        state = how.state();
      }
      return true;
    }
    return false;
  }

  /** When a poll first saw the job ended, remembering {@code now} if this is the first time. */
  Instant endSeenSince(Instant now) {
    if (endSeenSince.isEmpty()) {
      endSeenSince = Optional.of(now);
    }
    return endSeenSince.get();
  }

  Optional<Instant> missingSince() {
    return missingSince;
  }

  void missingSince(Optional<Instant> since) {
    missingSince = since;
  }
}
