package dev.berth.slurm;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.ValueText;
import dev.berth.slurm.SlurmConfig.Builder;
import dev.berth.spi.JobsOnExit;
import java.util.List;

/** The {@code slurm.*} config keys, which {@link SlurmConfig} is read from. */
public final class SlurmKeys {

  private static final String EXECUTOR = "scheduler.executor";

  /**
   * The table. A run whose tasks are batch jobs ({@code executor: slurm}, mode {@code jobs}) is also
   * checked: the cluster picks nodes and GPUs, and Berth is not on the task's node.
   */
  public static final SettingsTable<SlurmConfig, Builder> TABLE = SettingsTable.of("slurm", SlurmConfig.class,
      SlurmConfig::builder, Builder::build, List.of(
          ConfigKey.of("slurm.mode", "jobs or allocation", Parsers.oneOf(SlurmMode.values()), Builder::mode,
              SlurmConfig::mode, String::valueOf, "jobs (one batch job per attempt, arrays for matrices) or"
                  + " allocation (Berth packs tasks inside whole allocations)"),
          ConfigKey.text("slurm.partition", Builder::partition, SlurmConfig::partition,
              "sbatch --partition; empty = the cluster's default"),
          ConfigKey.text("slurm.account", Builder::account, SlurmConfig::account,
              "sbatch --account; empty = your default account"),
          ConfigKey.text("slurm.qos", Builder::qos, SlurmConfig::qos, "sbatch --qos; empty = the default"),
          ConfigKey.of("slurm.time", "duration", Parsers.DURATION, Builder::time, SlurmConfig::time, ValueText::duration,
              "sbatch --time for tasks without a timeout, and for each allocation; 0s = the partition's default"),
          ConfigKey.of("slurm.extra-args", "list of text", Parsers.TEXT_LIST, Builder::extraArgs, SlurmConfig::extraArgs,
              ValueText::list, "more sbatch options, one per item, passed as given"),
          ConfigKey.text("slurm.workdir-root", Builder::workdirRoot, SlurmConfig::workdirRoot,
              "shared folder (same path on every node) under which task folders go; empty = the run's workdir"),
          ConfigKey.text("slurm.gpu-memory-gres", Builder::gpuMemoryGres, SlurmConfig::gpuMemoryGres,
              "how gpu-memory is asked for: none (a whole GPU), shard, shard:10GiB, or a count GRES such as"
                  + " gpumem:1MiB"),
          ConfigKey.of("slurm.arrays", "true or false", Parsers.BOOLEAN, Builder::arrays, SlurmConfig::arrays,
              String::valueOf, "submit matrix tasks with the same resources as one job array"
                  + " (--array=0-N%max-process)"),
          ConfigKey.text("slurm.gres", Builder::gres, SlurmConfig::gres,
              "mode allocation: the GRES of each allocation, e.g. gpu:8"),
          ConfigKey.of("slurm.cpus", "whole number", Parsers.wholeNumber(0), Builder::cpus, SlurmConfig::cpus,
              String::valueOf, "mode allocation: cores of each allocation; 0 = the cluster's default"),
          ConfigKey.of("slurm.memory", "memory size", Parsers.MEMORY, Builder::memoryBytes, SlurmConfig::memoryBytes,
              ValueText::bytes, "mode allocation: memory of each allocation; 0 = the cluster's default"),
          ConfigKey.of("slurm.max-allocations", "whole number", Parsers.wholeNumber(1), Builder::maxAllocations,
              SlurmConfig::maxAllocations, String::valueOf,
              "mode allocation: most allocations asked for, one after another, while tasks are left"),
          ConfigKey.of("slurm.on-exit", "ask, cancel or leave", Parsers.oneOf(JobsOnExit.values()), Builder::onExit,
              SlurmConfig::onExit, String::valueOf, "what Ctrl-C does to submitted jobs: ask (on a terminal;"
                  + " elsewhere cancel), cancel them, or leave them running for berth resume"),
          ConfigKey.of("slurm.poll-max", "duration", Parsers.POSITIVE_DURATION, Builder::pollMax, SlurmConfig::pollMax,
              ValueText::duration, "longest wait between two squeue calls while nothing changes"),
          ConfigKey.of("slurm.retry-for", "duration", Parsers.DURATION, Builder::retryFor, SlurmConfig::retryFor,
              ValueText::duration, "how long an sbatch or scancel failing for a reason that passes (controller"
                  + " unreachable, busy, rate limit) is tried again, waiting 1s, 2s, 4s ... up to 30s; 0s = once")
              .asJournaledWhenSet()))
      .checkedAgainst(SlurmKeys::checkTasks);

  private SlurmKeys() {}

  /** What a task may not ask for when each attempt is a job: a problem of {@code scheduler.executor}. */
  private static void checkTasks(SlurmConfig slurm, RunSpec run) {
    if (!run.config().onCluster() || slurm.allocationMode()) {
      return;
    }
    for (TaskSpec t : run.tasks()) {
      if (t.twoStage()) {
        throw new InvalidValue(null, EXECUTOR, "task " + t.id() + " is two-stage, which needs Berth on the task's"
            + " node for the load and train hand-off; on Slurm use slurm: {mode: allocation}, or run it as one stage");
      }
      if (t.gpu().pinned().isPresent() || !t.gpu().targets().isEmpty()) {
        throw new InvalidValue(null, EXECUTOR, "task " + t.id() + " pins GPUs (device: cuda:N or targets), but on"
            + " Slurm the cluster picks the GPU; ask for device: cuda, gpu-memory or gpus instead");
      }
    }
  }
}
