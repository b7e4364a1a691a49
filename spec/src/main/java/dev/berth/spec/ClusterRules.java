package dev.berth.spec;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import java.util.List;

/**
 * What a task may not ask for when each attempt is a Slurm job ({@code executor: slurm} in mode
 * {@code jobs}): the cluster picks nodes and GPUs, and Berth is not on the task's node.
 */
final class ClusterRules {

  private ClusterRules() {}

  /** Checks every task; a problem is named at {@code executor}, the setting that makes it one. */
  static void check(SchedulerConfig config, List<GroupSpec> groups, Field executor) throws SpecException {
    if (!config.onCluster() || config.slurm().allocationMode()) {
      return;
    }
    for (GroupSpec g : groups) {
      for (TaskSpec t : g.tasks()) {
        if (t.twoStage()) {
          throw executor.problem("task " + t.id() + " is two-stage, which needs Berth on the task's node for the"
              + " load and train hand-off; on Slurm use slurm: {mode: allocation}, or run it as one stage");
        }
        if (t.gpu().pinned().isPresent() || !t.gpu().targets().isEmpty()) {
          throw executor.problem("task " + t.id() + " pins GPUs (device: cuda:N or targets), but on Slurm the"
              + " cluster picks the GPU; ask for device: cuda, gpu-memory or gpus instead");
        }
      }
    }
  }
}
