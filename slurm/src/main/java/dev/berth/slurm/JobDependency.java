package dev.berth.slurm;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.TaskId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link Dependency} whose parents have been submitted, in Slurm's terms.
 *
 * <p>Slurm's {@code afternotok} and {@code afterany} are also met by a parent that was cancelled, while
 * Berth's own edges are not; submit dependants ahead only where that difference does not matter.
 *
 * @param jobs the parents' job ids
 * @param all whether all parents must satisfy the edge ({@code ,}-joined) or any one ({@code ?}-joined)
 * @param success whether a parent that succeeded satisfies it
 * @param failure whether a parent that failed satisfies it
 */
public record JobDependency(List<SlurmJobId> jobs, boolean all, boolean success, boolean failure) {

  /** Validates: at least one parent, and at least one of success and failure. */
  public JobDependency {
    jobs = List.copyOf(jobs);
    if (jobs.isEmpty()) {
      throw new IllegalArgumentException("a dependency needs at least one job");
    }
    if (!success && !failure) {
      throw new IllegalArgumentException("a dependency with success and failure both false can never be met");
    }
  }

  /**
   * The Slurm form of {@code dependency}, with each parent task's job.
   *
   * @throws IllegalArgumentException naming the parents that have no job
   */
  public static JobDependency of(Dependency dependency, Map<TaskId, SlurmJobId> jobOf) {
    List<SlurmJobId> jobs = new ArrayList<>();
    List<TaskId> missing = new ArrayList<>();
    for (TaskId parent : dependency.tasks()) {
      SlurmJobId job = jobOf.get(parent);
      if (job == null) {
        missing.add(parent);
      } else {
        jobs.add(job);
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("cannot hand '" + dependency.describe() + "' to Slurm: " + missing
          + " have no Slurm job");
    }
    return new JobDependency(jobs, dependency.all(), dependency.success(), dependency.failure());
  }

  /**
   * The value of {@code --dependency}: {@code afterok:1:2} when all must succeed, {@code afternotok}
   * for failure, {@code afterany} for either, and {@code afterok:1?afterok:2} when any one will do.
   */
  public String toSlurm() {
    String type = success && failure ? "afterany" : success ? "afterok" : "afternotok";
    List<String> ids = jobs.stream().map(SlurmJobId::value).toList();
    if (all) {
      return type + ":" + String.join(":", ids);
    }
    return String.join("?", ids.stream().map(id -> type + ":" + id).toList());
  }
}
