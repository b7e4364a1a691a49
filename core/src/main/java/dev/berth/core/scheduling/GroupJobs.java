package dev.berth.core.scheduling;

import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.resources.Refusal;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A group's own cap on its jobs in a cluster's hands, pending or running (an array element counts as
 * one), on top of the run's {@link JobLimit}s: its {@code slurm: {max-jobs: N}}
 * ({@link SchedulerKeys#groupMaxJobs}), as a Slurm user caps one array with {@code --array=...%N}. The
 * jobs are counted by group once per pass and then as the pass submits, so the tasks it starts,
 * which the executor may gather into an array, never take a group past its cap. Pure.
 */
final class GroupJobs {

  /** The rule named when a group's cap holds a task back, after the group's field: {@code slurm.max-jobs}. */
  private static final String RULE = TaskKeys.SLURM.key() + "." + SchedulerKeys.MAX_JOBS.name();

  private final RunState state;
  /** The jobs each group has in the cluster's hands, by group index. */
  private final Map<Integer, Integer> held = new TreeMap<>();

  /** Counts {@code state}'s jobs by group. */
  GroupJobs(RunState state) {
    this.state = state;
    for (TaskId id : state.running().keySet()) {
      held.merge(state.task(id).groupIndex(), 1, Integer::sum);
    }
  }

  /**
   * Why {@code r} may not be submitted in this pass: its group already has as many jobs in the cluster's
   * hands as its cap allows; empty when it may.
   */
  Optional<Refusal> refusal(TaskRecord r) {
    int cap = SchedulerKeys.groupMaxJobs(r.spec().get(TaskKeys.SLURM));
    int jobs = held.getOrDefault(r.groupIndex(), 0);
    if (cap == 0 || jobs < cap) {
      return Optional.empty();
    }
    String group = state.spec().groups().get(r.groupIndex()).name();
    return Optional.of(Refusal.groupJobs(group, cap, jobs, "groups[" + r.groupIndex() + "]." + RULE));
  }

  /** Counts {@code r}'s job, submitted in this pass. */
  void submitted(TaskRecord r) {
    held.merge(r.groupIndex(), 1, Integer::sum);
  }
}
