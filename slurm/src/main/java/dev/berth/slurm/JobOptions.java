package dev.berth.slurm;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a task's jobs are submitted with beyond its resources: the run's {@code slurm.*} settings with
 * its group's and its own {@code slurm:} options over them ({@link SlurmKeys#forTask}), and its group,
 * which names its job arrays.
 *
 * @param group the task's group; empty when the executor was given no run
 * @param slurm the settings its jobs ask Slurm for
 */
record JobOptions(Optional<String> group, SlurmConfig slurm) {

  JobOptions {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(slurm, "slurm");
  }

  /** Every task with {@code slurm}, the run's settings, and no group known. */
  static Function<TaskId, JobOptions> same(SlurmConfig slurm) {
    JobOptions options = new JobOptions(Optional.empty(), slurm);
    return id -> options;
  }

  /** Each task of {@code run} with its own options over {@code slurm}; an unknown task with {@code slurm}. */
  static Function<TaskId, JobOptions> of(RunSpec run, SlurmConfig slurm) {
    Map<TaskId, JobOptions> byTask = run.tasks().stream().collect(Collectors.toUnmodifiableMap(TaskSpec::id,
        t -> new JobOptions(Optional.of(t.group()), SlurmKeys.forTask(slurm, t))));
    JobOptions unknown = new JobOptions(Optional.empty(), slurm);
    return id -> byTask.getOrDefault(id, unknown);
  }
}
