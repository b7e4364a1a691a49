package dev.berth.slurm;

import dev.berth.core.scheduling.JobLimit;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * How many of the run's jobs the cluster takes at once ({@link SlurmExecutor#jobLimits()}): the limits it
 * tells ({@link ClusterLimits}, read once, when first asked), and what a refusal of a job for a job-count
 * limit ({@link SlurmFailures#queueFull}) teaches: the cluster holds no more of the run's jobs than it held
 * then. A limit so taught lasts {@link #FIRST_WAIT}, and twice as long after each refusal that follows
 * without a job taken in between, up to {@link #LONGEST_WAIT}: the user's other jobs, which Berth does not
 * see, may be what filled the queue, and end on their own schedule. Thread-safe.
 */
final class QueueRoom {

  /** How long a limit taught by a first refusal lasts. */
  static final Duration FIRST_WAIT = Duration.ofSeconds(30);
  /** The longest a taught limit lasts. */
  static final Duration LONGEST_WAIT = Duration.ofMinutes(5);

  private final Supplier<ClusterLimits> read;
  private final InstantSource clock;
  private final Set<SlurmExecution> submitted = ConcurrentHashMap.newKeySet();
  /** Guarded by this. */
  private ClusterLimits cluster;
  /** Guarded by this. */
  private JobLimit taught;
  /** Guarded by this. */
  private Duration wait = FIRST_WAIT;

  /** @param read reads the cluster's limits; asked once, when first needed */
  QueueRoom(Supplier<ClusterLimits> read, InstantSource clock) {
    this.read = read;
    this.clock = clock;
  }

  /** The cluster's limits, read on the first call. */
  synchronized ClusterLimits cluster() {
    if (cluster == null) {
      cluster = read.get();
    }
    return cluster;
  }

  /** Counts {@code job} among the run's jobs in the cluster until it has ended. */
  void submitted(SlurmExecution job) {
    submitted.add(job);
    if (submitted.size() % 1024 == 0) {
      submitted.removeIf(ended -> ended.ending().isPresent()); // a long run's ended jobs are not kept
    }
  }

  /** The cluster took a job: the next refusal is a first one again. */
  synchronized void taken() {
    wait = FIRST_WAIT;
  }

  /**
   * The cluster refused a job for a job-count limit ({@code why}, Slurm's words): as many of the run's jobs
   * as it holds now are all it takes, for a while.
   */
  synchronized void refused(String why) {
    Instant until = clock.instant().plus(wait);
    taught = new JobLimit(live(), "the cluster took no more: " + why, Optional.of(until));
    wait = wait.multipliedBy(2).compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait.multipliedBy(2);
  }

  /** Why a job is not to be submitted now, when a taught limit holds and the run's jobs reach it. */
  synchronized Optional<String> full() {
    if (taught == null || !taught.holdsAt(clock.instant()) || live() < taught.jobs()) {
      return Optional.empty();
    }
    return Optional.of(taught.rule());
  }

  /** The cluster's limits and the one taught last, while it lasts. */
  synchronized List<JobLimit> jobLimits() {
    List<JobLimit> limits = new ArrayList<>(cluster().jobLimits());
    if (taught != null && taught.holdsAt(clock.instant())) {
      limits.add(taught);
    }
    return List.copyOf(limits);
  }

  private int live() {
    submitted.removeIf(job -> job.ending().isPresent());
    return submitted.size();
  }
}
