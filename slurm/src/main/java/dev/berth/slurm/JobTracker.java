package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import dev.berth.os.DaemonThreads;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Finds the ends of Slurm jobs for {@link SlurmExecutor}: polls Slurm about every live job in rounds
 * ({@link JobPoll}) that its {@link Timers} run, and reports each end exactly once on another thread
 * ({@code berth-slurm-exit}), so a slow listener never delays polling.
 *
 * <p>Polling is the only way: Slurm has no notification a client can subscribe to (job mail and
 * {@code strigger} run programs on the controller, not in the submitting process). One squeue call per
 * round for all jobs keeps the controller's load independent of the number of tasks, and sacct is asked
 * only about the jobs that ended ({@link JobPoll}). The rounds back off ({@link Backoff}): the first
 * comes {@link SlurmTuning#pollInitial()} after a submission or a cancellation, the next
 * {@link #step} later, and the wait doubles up to {@link SlurmConfig#pollMax()} while no job ends; a
 * round that saw a job end brings the wait back to the step. A round always comes when a job squeue no
 * longer lists is due to be reported lost. Time is the injected clock's and the timers': a fake clock
 * drives the tracker in tests.
 */
final class JobTracker {

  private final InstantSource clock;
  private final Timers timers;
  private final SlurmTuning tuning;
  private final JobPoll poll;
  private final Map<SlurmJobId, SlurmExecution> live = new ConcurrentHashMap<>();
  private final ExecutorService exits =
      Executors.newSingleThreadExecutor(DaemonThreads.named("berth-slurm-exit", false));
  private final Backoff backoff;
  /** The round scheduled next, and when; guarded by this. */
  private Timers.Cancellable next;
  private Instant nextAt;
  /** Counts the rounds scheduled, so that a round whose timer was replaced does nothing; guarded by this. */
  private long scheduled;
  private boolean polling;
  private boolean closed;

  /**
   * A tracker whose rounds run on {@code timers}. A round waits for squeue, so the timers must not be
   * shared with anything that cannot wait that long.
   */
  JobTracker(CommandRunner runner, SlurmConfig slurm, SlurmTuning tuning, InstantSource clock, Timers timers) {
    this.clock = clock;
    this.timers = timers;
    this.tuning = tuning;
    this.poll = new JobPoll(runner, tuning, this::report);
    this.backoff = new Backoff(tuning.pollInitial(), step(tuning), slurm.pollMax());
  }

  /**
   * The wait after the first round and after a round that saw a job end: ten times the initial wait (2 s
   * by default), as long as sacct usually takes to record an ended job's steps.
   */
  static Duration step(SlurmTuning tuning) {
    return tuning.pollInitial().multipliedBy(10);
  }

  /** Starts tracking a submitted job. */
  void track(SlurmExecution execution) {
    live.put(execution.jobId(), execution);
    soon();
  }

  /** Makes the next round come within the initial wait, e.g. after a submission or a cancellation. */
  synchronized void soon() {
    if (closed) {
      return;
    }
    backoff.reset();
    if (!polling) {
      roundWithin(tuning.pollInitial());
    }
  }

  /**
   * Like {@link #soon()}, from a thread other than the one that runs the rounds (the canceller's): the
   * request itself goes through the timers, so it is ordered with the rounds and never replaces a round
   * that is due while the clock moves on.
   */
  void soonFromElsewhere() {
    synchronized (this) {
      if (closed) {
        return;
      }
    }
    try {
      timers.schedule(Duration.ZERO, this::soon);
    } catch (IllegalStateException timersClosed) {
      // closed meanwhile: there is nothing left to poll for
    }
  }

  /** Reports an exit that needs no polling (an attempt never submitted) on the exit thread, like any other. */
  void reportLater(ExitListener listener, int exitCode) {
    try {
      exits.execute(() -> listener.exited(exitCode));
    } catch (RejectedExecutionException closedMeanwhile) {
      // closed: exits after close() are not reported
    }
  }

  /** The error of the last round, if it failed. */
  Optional<String> lastError() {
    return poll.lastError();
  }

  /** Rounds run so far. */
  long polls() {
    return poll.polls();
  }

  /** Rounds that failed so far. */
  long failures() {
    return poll.failures();
  }

  /** Stops polling and the exit thread; exits found after this are not reported. */
  synchronized void close() {
    closed = true;
    if (next != null) {
      next.cancel();
      next = null;
    }
    exits.shutdown();
  }

  /** Schedules a round after {@code delay}, unless one comes sooner already; holds the lock. */
  private void roundWithin(Duration delay) {
    Instant at = clock.instant().plus(delay);
    if (next != null && !nextAt.isAfter(at)) {
      return;
    }
    if (next != null) {
      next.cancel();
    }
    long round = ++scheduled;
    nextAt = at;
    next = timers.schedule(delay, () -> round(round));
  }

  private void round(long round) {
    synchronized (this) {
      if (closed || polling || round != scheduled) {
        return;
      }
      next = null;
      polling = true;
    }
    boolean changed = false;
    try {
      changed = poll.run(List.copyOf(live.values()), clock.instant());
    } finally {
      afterRound(changed);
    }
  }

  /** Schedules the next round: after the backoff's wait, or when a job is due to be lost, if that is sooner. */
  private synchronized void afterRound(boolean changed) {
    polling = false;
    if (closed || live.isEmpty()) {
      return;
    }
    Duration wait = backoff.next(changed);
    Instant now = clock.instant();
    Optional<Duration> untilLoss =
        poll.nextLoss(List.copyOf(live.values())).filter(now::isBefore).map(at -> Duration.between(now, at));
    roundWithin(untilLoss.isPresent() && untilLoss.get().compareTo(wait) < 0 ? untilLoss.get() : wait);
  }

  private void report(SlurmExecution e, SlurmEnding ending) {
    if (!e.end(ending)) {
      return;
    }
    live.remove(e.jobId());
    try {
      exits.execute(() -> e.listener().exited(ending.exitCode()));
    } catch (RejectedExecutionException closedMeanwhile) {
      // closed: exits after close() are not reported
    }
  }
}
