package dev.berth.core.model;

import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.model.SchedulerConfig.Builder;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Setting;
import dev.berth.core.settings.ValueText;
import dev.berth.core.settings.InvalidValue;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The config keys of core's scheduling settings ({@link SchedulerConfig}): the {@code scheduler},
 * {@code utilization-limit} and {@code remain-limit} sections, and {@code slurm.max-jobs}, which is
 * the limit core's cluster admission keeps. Each key is declared here once, with its type, parser,
 * default, printer and docs: {@link SchedulerConfig} holds one value per key in the key's slot, and the
 * readers, the journal, {@code berth config}, the Java options and the README take the key from this
 * table. Keys follow fedflow's names; {@code scheduler.cores} is Berth's own. A key of the
 * {@code scheduler} section that only an executor acts on (the local executor's
 * {@code scheduler.enforce-memory} and {@code scheduler.log-cap}) is that executor's, in its own table.
 */
public final class SchedulerKeys {

  private static final String WHOLE = "whole number";
  private static final String TIME = Setting.DURATION;
  private static final String BYTES = Setting.MEMORY_SIZE;
  private static final String SHARE = "fraction";
  private static final String ON_OFF = "on or off";

  /** The slots of the keys below, and each key's default, as they are made. */
  private static final Slots<SchedulerConfig, Builder> SLOTS = new Slots<>();

  /** {@code scheduler.max-process}. */
  public static final ConfigKey<SchedulerConfig, Builder, Integer> MAX_PROCESS =
      SLOTS.key("scheduler.max-process", WHOLE, Parsers.wholeNumber(0), 20, String::valueOf,
          "most task processes alive at once; 0 = unlimited");

  /** {@code scheduler.max-waiting}. */
  public static final ConfigKey<SchedulerConfig, Builder, Integer> MAX_WAITING =
      SLOTS.key("scheduler.max-waiting", WHOLE, Parsers.wholeNumber(0), 10, String::valueOf,
          "most two-stage tasks loaded but not yet training; 0 = unlimited");

  /** {@code scheduler.max-tasks}. */
  public static final ConfigKey<SchedulerConfig, Builder, Integer> MAX_TASKS =
      SLOTS.key("scheduler.max-tasks", WHOLE, Parsers.wholeNumber(1), 1_000_000, String::valueOf,
          "most tasks a run may hold, summed over every matrix and group; a spec over it is refused"
              + " before its matrices are expanded").asJournaledWhenSet();

  /** {@code scheduler.interval}. */
  public static final ConfigKey<SchedulerConfig, Builder, Duration> INTERVAL =
      SLOTS.key("scheduler.interval", TIME, Parsers.DURATION, Duration.ofSeconds(1), ValueText::duration,
          "how often host resources are probed, e.g. 1s or 500ms");

  /** {@code scheduler.default-memory}. */
  public static final ConfigKey<SchedulerConfig, Builder, Long> DEFAULT_MEMORY =
      SLOTS.key("scheduler.default-memory", BYTES, Parsers.MEMORY, 2_000_000_000L, ValueText::bytes,
          "memory reserved for a task that gives no estimate");

  /** {@code scheduler.cores}. */
  public static final ConfigKey<SchedulerConfig, Builder, Integer> CORES =
      SLOTS.key("scheduler.cores", WHOLE, Parsers.wholeNumber(0), 0, String::valueOf,
          "cores Berth may hand out to tasks; 0 = every logical CPU");

  /** {@code scheduler.load-nretry}. */
  public static final ConfigKey<SchedulerConfig, Builder, Integer> LOAD_NRETRY =
      SLOTS.key("scheduler.load-nretry", WHOLE, Parsers.wholeNumber(1), 3, String::valueOf,
          "load attempts a two-stage task gets before it fails");

  /** {@code scheduler.train-nretry}. */
  public static final ConfigKey<SchedulerConfig, Builder, Integer> TRAIN_NRETRY =
      SLOTS.key("scheduler.train-nretry", WHOLE, Parsers.wholeNumber(1), 3, String::valueOf,
          "train attempts a two-stage task gets before it fails");

  /** {@code utilization-limit.cpu}. */
  public static final ConfigKey<SchedulerConfig, Builder, Double> CPU_UTILIZATION_LIMIT =
      SLOTS.key("utilization-limit.cpu", SHARE, Parsers.FRACTION, 0.8, String::valueOf,
          "no task starts while other processes keep the CPUs at least this busy (niced ones and "
              + "Berth's own tasks do not count), in (0, 1]");

  /** {@code utilization-limit.memory}. */
  public static final ConfigKey<SchedulerConfig, Builder, Double> MEMORY_UTILIZATION_LIMIT =
      SLOTS.key("utilization-limit.memory", SHARE, Parsers.FRACTION, 0.8, String::valueOf,
          "no task starts if it would push host memory use past this fraction, in (0, 1]");

  /** {@code remain-limit.memory}. */
  public static final ConfigKey<SchedulerConfig, Builder, Long> REMAIN_MEMORY =
      SLOTS.key("remain-limit.memory", BYTES, Parsers.MEMORY, 4_000_000_000L, ValueText::bytes,
          "host memory that must stay free after a task starts");

  /** {@code scheduler.default-cuda-memory}. */
  public static final ConfigKey<SchedulerConfig, Builder, Long> DEFAULT_CUDA_MEMORY =
      SLOTS.key("scheduler.default-cuda-memory", BYTES, Parsers.MEMORY, 2_000_000_000L, ValueText::bytes,
          "GPU memory reserved for a task that asks for a GPU (device: cuda, a pin or targets) but "
              + "gives no gpu-memory");

  /** {@code utilization-limit.cuda-memory}. */
  public static final ConfigKey<SchedulerConfig, Builder, Double> CUDA_MEMORY_UTILIZATION_LIMIT =
      SLOTS.key("utilization-limit.cuda-memory", SHARE, Parsers.FRACTION, 0.8, String::valueOf,
          "no task is placed on a GPU if it would push that device's memory use past this fraction,"
              + " in (0, 1]");

  /** {@code remain-limit.cuda-memory}. */
  public static final ConfigKey<SchedulerConfig, Builder, Long> REMAIN_CUDA_MEMORY =
      SLOTS.key("remain-limit.cuda-memory", BYTES, Parsers.MEMORY, 2_000_000_000L, ValueText::bytes,
          "GPU memory that must stay free on a device after a task is placed");

  /** {@code scheduler.placement}. */
  public static final ConfigKey<SchedulerConfig, Builder, PlacementPolicyName> PLACEMENT =
      SLOTS.key("scheduler.placement", "policy name", Parsers.PLACEMENT, PlacementPolicyName.SPREAD, String::valueOf,
          "how a GPU is chosen among those that fit: spread (fewest running tasks, then best fit, keeping room for"
              + " the largest waiting task), best-fit, first-fit, most-free, round-robin, "
              + "random, auto, leastload, lru, twobin, weighted, pci, total-mem, remain-mem (add -reverse"
              + " to the last three)");

  /** {@code scheduler.max-per-device}. */
  public static final ConfigKey<SchedulerConfig, Builder, Integer> MAX_PER_DEVICE =
      SLOTS.key("scheduler.max-per-device", WHOLE, Parsers.wholeNumber(0), 0, String::valueOf,
          "most Berth tasks on one GPU; 0 = unlimited");

  /** {@code scheduler.put-interval}. */
  public static final ConfigKey<SchedulerConfig, Builder, Duration> PUT_INTERVAL =
      SLOTS.key("scheduler.put-interval", TIME, Parsers.DURATION, Duration.ofSeconds(5), ValueText::duration,
          "under placement auto: least time between two placements on one GPU");

  /** {@code scheduler.available-interval}. */
  public static final ConfigKey<SchedulerConfig, Builder, Duration> AVAILABLE_INTERVAL =
      SLOTS.key("scheduler.available-interval", TIME, Parsers.DURATION, Duration.ofSeconds(5), ValueText::duration,
          "under placement auto: how long a GPU's free memory must not have dropped before it is "
              + "used");

  /** {@code scheduler.seed}. */
  public static final ConfigKey<SchedulerConfig, Builder, Long> SEED =
      SLOTS.key("scheduler.seed", WHOLE, Parsers.WHOLE_LONG, 0L, String::valueOf,
          "seed of the random placement policies (random, twobin, weighted)");

  /** {@code scheduler.oom-growth}. */
  public static final ConfigKey<SchedulerConfig, Builder, Double> OOM_GROWTH =
      SLOTS.key("scheduler.oom-growth", "number", Parsers.BACKOFF, 1.5, String::valueOf,
          "factor a task's memory (or GPU memory) reservation grows by after it ran out of it, "
              + "capped at what fits");

  /** {@code scheduler.learn-memory}. */
  public static final ConfigKey<SchedulerConfig, Builder, Boolean> LEARN_MEMORY =
      SLOTS.key("scheduler.learn-memory", ON_OFF, Parsers.BOOLEAN, true, SchedulerKeys::onOff,
          "learn a task's memory request from the measured peaks of its template's finished tasks "
              + "(p95 x 1.2, never above the estimate unless an out-of-memory raised it; see "
              + "docs/learning.md)").asJournaledWhenSet();

  /** {@code scheduler.learn-gpu-memory}. */
  public static final ConfigKey<SchedulerConfig, Builder, Boolean> LEARN_GPU_MEMORY =
      SLOTS.key("scheduler.learn-gpu-memory", ON_OFF, Parsers.BOOLEAN, true, SchedulerKeys::onOff,
          "the same for GPU memory, under every placement policy").asJournaledWhenSet();

  /** {@code scheduler.learn-after}. */
  public static final ConfigKey<SchedulerConfig, Builder, Integer> LEARN_AFTER =
      SLOTS.key("scheduler.learn-after", WHOLE, Parsers.wholeNumber(1), 3, String::valueOf,
          "finished tasks of a template (or of one parameter value) a request is learned from at "
              + "the least").asJournaledWhenSet();

  /** {@code scheduler.executor}. */
  public static final ConfigKey<SchedulerConfig, Builder, ExecutorKind> EXECUTOR =
      SLOTS.key("scheduler.executor", "local or slurm", Parsers.oneOf(ExecutorKind.values()), ExecutorKind.LOCAL,
          String::valueOf,
          "where tasks run: local (processes on this machine) or slurm (batch jobs; see the slurm.*"
              + " keys)");

  /** {@code slurm.max-jobs}. */
  public static final ConfigKey<SchedulerConfig, Builder, Integer> MAX_JOBS =
      SLOTS.key("slurm.max-jobs", WHOLE, Parsers.wholeNumber(0), 0, String::valueOf,
          "most of the run's jobs pending or running at once (array elements count one each); keep "
              + "it below your MaxSubmitJobs; 0 = no limit");

  /** The table, in documentation order; its record is a run's {@link RunSpec#config()}. */
  public static final SettingsTable<SchedulerConfig, Builder> TABLE = SettingsTable.of("scheduling",
      SchedulerConfig.class, SchedulerConfig::builder, Builder::build, List.of(
      MAX_PROCESS, MAX_WAITING, MAX_TASKS, INTERVAL, DEFAULT_MEMORY, CORES,
      LOAD_NRETRY, TRAIN_NRETRY, CPU_UTILIZATION_LIMIT, MEMORY_UTILIZATION_LIMIT, REMAIN_MEMORY,
      DEFAULT_CUDA_MEMORY, CUDA_MEMORY_UTILIZATION_LIMIT, REMAIN_CUDA_MEMORY, PLACEMENT, MAX_PER_DEVICE,
      PUT_INTERVAL, AVAILABLE_INTERVAL, SEED, OOM_GROWTH, LEARN_MEMORY,
      LEARN_GPU_MEMORY, LEARN_AFTER, EXECUTOR, MAX_JOBS));

  private SchedulerKeys() {}

  /**
   * The most of one group's jobs pending or running at once, as the group's {@code slurm: {max-jobs: N}}
   * says: {@link #MAX_JOBS}, read by the same parser, for the group's jobs alone. A group's {@code slurm:}
   * options are carried on each of its tasks ({@link TaskKeys#SLURM}), so {@code options} are any of its
   * tasks'; 0 (only the run's limits) when unset.
   *
   * @throws InvalidValue whose path is {@code max-jobs}, for a value the parser refuses
   */
  public static int groupMaxJobs(Map<String, ?> options) {
    Object written = options == null ? null : options.get(MAX_JOBS.name());
    if (written == null) {
      return 0;
    }
    try {
      return MAX_JOBS.parser().parse(written);
    } catch (InvalidValue e) {
      throw e.under(MAX_JOBS.name());
    }
  }

  /**
   * A group's or a task's {@code slurm:} {@code options} without the group's {@code max-jobs}, which is
   * core's ({@link #groupMaxJobs}): what the Slurm adapter reads as options of each job; null for none.
   */
  public static Map<String, ?> withoutGroupMaxJobs(Map<String, ?> options) {
    if (options == null || !options.containsKey(MAX_JOBS.name())) {
      return options;
    }
    Map<String, Object> jobOptions = new LinkedHashMap<>(options);
    jobOptions.remove(MAX_JOBS.name());
    return jobOptions;
  }

  /** Each key's default, by slot: the values of a builder that sets nothing. */
  static Object[] defaults() {
    return SLOTS.defaults();
  }


  private static String onOff(boolean on) {
    return on ? "on" : "off";
  }
}
