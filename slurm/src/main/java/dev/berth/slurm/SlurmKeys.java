package dev.berth.slurm;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.model.Slots;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.ValueText;
import dev.berth.slurm.SlurmConfig.Builder;
import dev.berth.spi.JobsOnExit;
import java.time.Duration;
import java.util.List;

/**
 * The {@code slurm.*} config keys, which {@link SlurmConfig} is read from. Each key is declared here
 * once, with its type, parser, default, printer and docs: {@link SlurmConfig} holds one value per key
 * in the key's slot.
 */
public final class SlurmKeys {

  private static final String EXECUTOR = "scheduler.executor";

  /** The slots of the keys below, and each key's default, as they are made. */
  private static final Slots<SlurmConfig, Builder> SLOTS = new Slots<>();

  /** {@code slurm.mode}. */
  public static final ConfigKey<SlurmConfig, Builder, SlurmMode> MODE =
      SLOTS.key("slurm.mode", "jobs or allocation", Parsers.oneOf(SlurmMode.values()), SlurmMode.JOBS, String::valueOf,
          "jobs (one batch job per attempt, arrays for matrices) or allocation (Berth packs tasks inside whole"
              + " allocations)");

  /** {@code slurm.partition}. */
  public static final ConfigKey<SlurmConfig, Builder, String> PARTITION =
      SLOTS.text("slurm.partition", "", "sbatch --partition; empty = the cluster's default");

  /** {@code slurm.account}. */
  public static final ConfigKey<SlurmConfig, Builder, String> ACCOUNT =
      SLOTS.text("slurm.account", "", "sbatch --account; empty = your default account");

  /** {@code slurm.qos}. */
  public static final ConfigKey<SlurmConfig, Builder, String> QOS =
      SLOTS.text("slurm.qos", "", "sbatch --qos; empty = the default");

  /** {@code slurm.time}. */
  public static final ConfigKey<SlurmConfig, Builder, Duration> TIME =
      SLOTS.key("slurm.time", "duration", Parsers.DURATION, Duration.ZERO, ValueText::duration,
          "sbatch --time for tasks without a timeout, and for each allocation; 0s = the partition's default");

  /** {@code slurm.extra-args}. */
  public static final ConfigKey<SlurmConfig, Builder, List<String>> EXTRA_ARGS =
      SLOTS.key("slurm.extra-args", "list of text", Parsers.TEXT_LIST, List.of(), ValueText::list,
          "more sbatch options, one per item, passed as given");

  /** {@code slurm.constraint}. */
  public static final ConfigKey<SlurmConfig, Builder, String> CONSTRAINT =
      SLOTS.text("slurm.constraint", "", "sbatch --constraint, the node features a job needs (e.g. a100&nvlink);"
          + " empty = any node").asJournaledWhenSet();

  /** {@code slurm.requeue}. */
  public static final ConfigKey<SlurmConfig, Builder, Boolean> REQUEUE =
      SLOTS.key("slurm.requeue", "true or false", Parsers.BOOLEAN, false, String::valueOf,
          "sbatch --requeue: Slurm may run a preempted job, or one whose node failed, again under the same job"
              + " id, the same attempt to Berth; false = not asked, the cluster's JobRequeue decides")
          .asJournaledWhenSet();

  /** {@code slurm.signal}. */
  public static final ConfigKey<SlurmConfig, Builder, String> SIGNAL =
      SLOTS.text("slurm.signal", "", "sbatch --signal=B:SIG@SECONDS as [SIG@]DURATION, e.g. 5m or USR1@5m: the"
          + " task gets SIG (USR1 unless named) that long before its time limit, to checkpoint; empty = none")
          .asJournaledWhenSet();

  /** {@code slurm.workdir-root}. */
  public static final ConfigKey<SlurmConfig, Builder, String> WORKDIR_ROOT =
      SLOTS.text("slurm.workdir-root", "",
          "shared folder (same path on every node) under which task folders go; empty = the run's workdir");

  /** {@code slurm.gpu-memory-gres}. */
  public static final ConfigKey<SlurmConfig, Builder, String> GPU_MEMORY_GRES =
      SLOTS.text("slurm.gpu-memory-gres", "none",
          "how gpu-memory is asked for: none (a whole GPU), shard, shard:10GiB, or a count GRES such as"
              + " gpumem:1MiB");

  /** {@code slurm.arrays}. */
  public static final ConfigKey<SlurmConfig, Builder, Boolean> ARRAYS =
      SLOTS.key("slurm.arrays", "true or false", Parsers.BOOLEAN, true, String::valueOf,
          "submit matrix tasks with the same resources as one job array (--array=0-N%max-process)");

  /** {@code slurm.gres}. */
  public static final ConfigKey<SlurmConfig, Builder, String> GRES =
      SLOTS.text("slurm.gres", "", "mode allocation: the GRES of each allocation, e.g. gpu:8");

  /** {@code slurm.cpus}. */
  public static final ConfigKey<SlurmConfig, Builder, Integer> CPUS =
      SLOTS.key("slurm.cpus", "whole number", Parsers.wholeNumber(0), 0, String::valueOf,
          "mode allocation: cores of each allocation; 0 = the cluster's default");

  /** {@code slurm.memory}. */
  public static final ConfigKey<SlurmConfig, Builder, Long> MEMORY =
      SLOTS.key("slurm.memory", "memory size", Parsers.MEMORY, 0L, ValueText::bytes,
          "mode allocation: memory of each allocation; 0 = the cluster's default");

  /** {@code slurm.max-allocations}. */
  public static final ConfigKey<SlurmConfig, Builder, Integer> MAX_ALLOCATIONS =
      SLOTS.key("slurm.max-allocations", "whole number", Parsers.wholeNumber(1), 10, String::valueOf,
          "mode allocation: most allocations asked for, one after another, while tasks are left");

  /** {@code slurm.on-exit}. */
  public static final ConfigKey<SlurmConfig, Builder, JobsOnExit> ON_EXIT =
      SLOTS.key("slurm.on-exit", "ask, cancel or leave", Parsers.oneOf(JobsOnExit.values()), JobsOnExit.ASK,
          String::valueOf, "what Ctrl-C does to submitted jobs: ask (on a terminal; elsewhere cancel), cancel"
              + " them, or leave them running for berth resume");

  /** {@code slurm.poll-max}. */
  public static final ConfigKey<SlurmConfig, Builder, Duration> POLL_MAX =
      SLOTS.key("slurm.poll-max", "duration", Parsers.POSITIVE_DURATION, Duration.ofSeconds(60), ValueText::duration,
          "longest wait between two squeue calls while nothing changes");

  /** {@code slurm.retry-for}. */
  public static final ConfigKey<SlurmConfig, Builder, Duration> RETRY_FOR =
      SLOTS.key("slurm.retry-for", "duration", Parsers.DURATION, Duration.ofMinutes(5), ValueText::duration,
          "how long an sbatch or scancel failing for a reason that passes (controller unreachable, busy, rate"
              + " limit) is tried again, waiting 1s, 2s, 4s ... up to 30s; 0s = once").asJournaledWhenSet();

  /**
   * The keys a group (or a task) may set for its own jobs under {@code slurm:}, over the run's values,
   * like a workflow's per-rule resources: what the cluster is asked for each job. How the run talks to
   * Slurm (mode, arrays, polling, the folders) stays the run's.
   */
  public static final List<ConfigKey<SlurmConfig, Builder, ?>> GROUP_KEYS =
      List.of(PARTITION, ACCOUNT, QOS, TIME, CONSTRAINT, EXTRA_ARGS, REQUEUE, SIGNAL);

  /**
   * The table, in documentation order. A run whose tasks are batch jobs ({@code executor: slurm}, mode
   * {@code jobs}) is also checked: the cluster picks nodes and GPUs, and Berth is not on the task's node.
   */
  public static final SettingsTable<SlurmConfig, Builder> TABLE = SettingsTable.of("slurm", SlurmConfig.class,
      SlurmConfig::builder, Builder::build, List.of(
          MODE, PARTITION, ACCOUNT, QOS, TIME, CONSTRAINT, EXTRA_ARGS, REQUEUE, SIGNAL, WORKDIR_ROOT,
          GPU_MEMORY_GRES, ARRAYS, GRES, CPUS, MEMORY, MAX_ALLOCATIONS, ON_EXIT, POLL_MAX, RETRY_FOR))
      .checkedAgainst(SlurmKeys::checkTasks).withGroupKeys(GROUP_KEYS);

  private SlurmKeys() {}

  /** Each key's default, by slot: the values of a builder that sets nothing. */
  static Object[] defaults() {
    return SLOTS.defaults();
  }



  /**
   * The settings {@code task}'s jobs are submitted with: the run's {@code slurm}, with its group's and its
   * own {@code slurm:} options over them (already checked when the spec was read). The group's
   * {@code max-jobs} is no job option but core's cap on the group's jobs ({@link SchedulerKeys#groupMaxJobs}).
   */
  public static SlurmConfig forTask(SlurmConfig slurm, TaskSpec task) {
    return TABLE.over(slurm, SchedulerKeys.withoutGroupMaxJobs(task.get(TaskKeys.SLURM)));
  }

  /** What a task may not ask for when each attempt is a job: a problem of {@code scheduler.executor}. */
  private static void checkTasks(SlurmConfig slurm, RunSpec run) {
    if (!run.config().onCluster()) {
      return;
    }
    if (slurm.allocationMode()) {
      for (TaskSpec t : run.tasks()) {
        if (t.get(TaskKeys.SLURM) != null) {
          throw new InvalidValue(null, MODE.key(), "task " + t.id() + " has slurm: options of its own, which only"
              + " mode jobs submits with; an allocation is asked for with the run's slurm: options");
        }
      }
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
