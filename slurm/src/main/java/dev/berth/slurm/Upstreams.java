package dev.berth.slurm;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides how an attempt held back for its parents is submitted. Parents still in Slurm's hands go into
 * the job's {@link JobDependency}; parents that already ended are judged here, because Slurm may no
 * longer know them (after {@code MinJobAge} sbatch refuses a dependency on a forgotten job). Pure.
 *
 * <p>An ended parent satisfies an edge that accepts success when it {@link SlurmOutcome#SUCCEEDED}, and
 * one that accepts failure when it {@link SlurmOutcome#FAILED}, was killed for memory or timed out. A
 * parent that was cancelled, failed for the cluster's sake or never ran satisfies nothing: Berth runs it
 * again or gives up on it, and either way this attempt must wait for the next word.
 */
final class Upstreams {

  private Upstreams() {}

  /**
   * One parent.
   *
   * @param name for people, e.g. {@code "Slurm job 12"}
   * @param job its job, when it was submitted
   * @param ended how it ended, when it has
   */
  record Parent(String name, Optional<SlurmJobId> job, Optional<SlurmOutcome> ended) {}

  /** How to go on. */
  sealed interface Decision permits Submit, NeverMet {}

  /** Submit, held by Slurm until {@code after} is met; without it at once. */
  record Submit(Optional<JobDependency> after) implements Decision {}

  /** Do not submit: the edge can no longer be met, for the reason given. */
  record NeverMet(String why) implements Decision {}

  /** The decision for parents joined by {@code all} (else any one), accepting success and/or failure. */
  static Decision decide(List<Parent> parents, boolean all, boolean success, boolean failure) {
    List<SlurmJobId> live = new ArrayList<>();
    List<Parent> unmet = new ArrayList<>();
    boolean anySatisfied = false;
    for (Parent p : parents) {
      if (p.ended().isEmpty()) {
        live.add(p.job().orElseThrow(() -> new IllegalArgumentException(p.name() + " has no job and has not ended")));
      } else if (satisfies(p.ended().get(), success, failure)) {
        anySatisfied = true;
      } else {
        unmet.add(p);
      }
    }
    if (all && !unmet.isEmpty()) {
      Parent p = unmet.get(0);
      return new NeverMet(p.name() + " ended " + p.ended().get() + ", which " + edge(success, failure)
          + " does not accept");
    }
    if (!all && anySatisfied) {
      return new Submit(Optional.empty());
    }
    if (live.isEmpty()) {
      return all ? new Submit(Optional.empty())
          : new NeverMet("every parent ended, and none as " + edge(success, failure) + " accepts");
    }
    return new Submit(Optional.of(new JobDependency(live, all, success, failure)));
  }

  private static boolean satisfies(SlurmOutcome outcome, boolean success, boolean failure) {
    return switch (outcome) {
      case SUCCEEDED -> success;
      case FAILED, HOST_OOM, TIMED_OUT -> failure;
      case CANCELLED, UPSTREAM_NOT_MET, INFRASTRUCTURE, RUNNING -> false;
    };
  }

  private static String edge(boolean success, boolean failure) {
    return success && failure ? "a dependency on any ending" : success ? "a dependency on success"
        : "a dependency on failure";
  }
}
