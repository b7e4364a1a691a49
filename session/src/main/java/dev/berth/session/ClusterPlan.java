package dev.berth.session;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.units.ByteSize;
import dev.berth.core.units.DurationText;
import dev.berth.slurm.SbatchCommand;
import dev.berth.slurm.SlurmConfig;
import dev.berth.slurm.SlurmKeys;
import dev.berth.slurm.SlurmResources;
import java.util.ArrayList;
import java.util.List;

/** What a dry run on Slurm shows: where the jobs go, and what each first attempt asks sbatch for. */
public final class ClusterPlan {

  private final SchedulerConfig config;
  private final SlurmConfig slurm;

  /** The plan of {@code run} on the cluster. */
  public ClusterPlan(RunSpec run) {
    this.config = run.config();
    this.slurm = SlurmKeys.TABLE.of(run);
  }

  /**
   * Whether each attempt is a batch job of its own, whose sbatch options the plan shows; false in
   * {@code slurm.mode: allocation}, where the tasks are packed inside allocations under the run's limits.
   */
  public boolean jobPerAttempt() {
    return !slurm.allocationMode();
  }

  /** One line: the mode and the cluster-wide sbatch settings. */
  public String describe() {
    SlurmConfig s = slurm;
    List<String> parts = new ArrayList<>();
    if (s.allocationMode()) {
      parts.add("allocations of " + (s.gres().isEmpty() ? "no GRES" : s.gres()) + ", "
          + Math.max(1, s.cpus()) + " cpus" + (s.memoryBytes() > 0 ? ", " + ByteSize.format(
              s.memoryBytes()) : "") + ", up to " + s.maxAllocations() + " one after another; tasks packed inside");
    } else {
      int most = config.maxProcess() > 0 && config.maxJobs() > 0 ? Math.min(config.maxProcess(), config.maxJobs())
          : Math.max(config.maxProcess(), config.maxJobs());
      parts.add("one batch job per attempt" + (most > 0 ? ", at most " + most + " of them in Slurm at once" : "")
          + (s.arrays() ? ", matrices as arrays" : ""));
    }
    addIf(parts, "partition ", s.partition());
    addIf(parts, "account ", s.account());
    addIf(parts, "qos ", s.qos());
    addIf(parts, "constraint ", s.constraint());
    addIf(parts, "requeue", s.requeue() ? " on" : "");
    s.jobSignal().ifPresent(signal -> parts.add("signal " + signal.name() + " " + signal.before() + "s before the limit"));
    if (!s.time().isZero()) {
      parts.add("time " + DurationText.format(s.time()));
    }
    if (!s.extraArgs().isEmpty()) {
      parts.add("extra " + String.join(" ", s.extraArgs()));
    }
    return "on Slurm: " + String.join(", ", parts);
  }

  /**
   * The resource options of the task's first attempt, e.g. {@code --mem=1024M --cpus-per-task=1}, then
   * the options its group's {@code slurm:} adds to or changes from the run's, e.g. {@code --partition=gpu}.
   */
  public String sbatchOptions(TaskSpec task) {
    SlurmResources resources = SlurmResources.of(task);
    SlurmConfig own = SlurmKeys.forTask(slurm, task);
    List<String> shown = new ArrayList<>(SbatchCommand.resourceOptions(own, resources));
    List<String> runs = SbatchCommand.jobOptions(slurm, resources);
    SbatchCommand.jobOptions(own, resources).stream().filter(o -> !runs.contains(o) && !shown.contains(o))
        .forEach(shown::add);
    if (!own.extraArgs().equals(slurm.extraArgs())) {
      shown.addAll(own.extraArgs());
    }
    return String.join(" ", shown);
  }

  private static void addIf(List<String> parts, String name, String value) {
    if (!value.isEmpty()) {
      parts.add(name + value);
    }
  }
}
