package dev.berth.core.scheduling;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The most jobs of a run a cluster may hold at once, pending or running (an array element counts as
 * one), and the rule that says so: a setting ({@code slurm.max-jobs}, {@code scheduler.max-process}),
 * a limit the cluster told ({@code MaxSubmitJobs}, {@code MaxJobCount}), or a refusal the cluster gave
 * when the run held that many jobs, which lasts until {@code until}.
 *
 * @param jobs the most jobs at once, at least 0
 * @param rule where the limit comes from, for people, e.g. {@code MaxSubmitJobs=50 [sacctmgr, user ana]}
 * @param until when the limit stops holding; empty for one that holds for the whole run
 */
public record JobLimit(int jobs, String rule, Optional<Instant> until) {

  /** Validates. */
  public JobLimit {
    if (jobs < 0) {
      throw new IllegalArgumentException("a job limit must be >= 0 but was " + jobs);
    }
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(until, "until");
  }

  /** A limit for the whole run. */
  public JobLimit(int jobs, String rule) {
    this(jobs, rule, Optional.empty());
  }

  /** Whether it still holds at {@code now}. */
  public boolean holdsAt(Instant now) {
    return until.map(now::isBefore).orElse(true);
  }
}
