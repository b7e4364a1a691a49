package dev.berth.core.model;

import dev.berth.core.model.SchedulerConfig.Builder;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Setting;
import dev.berth.core.settings.ValueText;
import java.util.List;

/**
 * The config keys of core's scheduling settings ({@link SchedulerConfig}): the {@code scheduler},
 * {@code utilization-limit} and {@code remain-limit} sections, and {@code slurm.max-jobs}, which is
 * the limit core's cluster admission keeps. Keys follow fedflow's names; {@code scheduler.cores} is
 * Berth's own.
 */
public final class SchedulerKeys {

  private static final String WHOLE = "whole number";
  private static final String TIME = Setting.DURATION;
  private static final String BYTES = Setting.MEMORY_SIZE;
  private static final String SHARE = "fraction";
  private static final String ON_OFF = "on or off";

  /** The table; its record is a run's {@link dev.berth.core.model.RunSpec#config()}. */
  public static final SettingsTable<SchedulerConfig, Builder> TABLE = SettingsTable.of("scheduling",
      SchedulerConfig.class, SchedulerConfig::builder, Builder::build, List.of(
          ConfigKey.of("scheduler.max-process", WHOLE, Parsers.wholeNumber(0), Builder::maxProcess,
              SchedulerConfig::maxProcess, String::valueOf, "most task processes alive at once; 0 = unlimited"),
          ConfigKey.of("scheduler.max-waiting", WHOLE, Parsers.wholeNumber(0), Builder::maxWaiting,
              SchedulerConfig::maxWaiting, String::valueOf,
              "most two-stage tasks loaded but not yet training; 0 = unlimited"),
          ConfigKey.of("scheduler.interval", TIME, Parsers.DURATION, Builder::interval, SchedulerConfig::interval,
              ValueText::duration, "how often host resources are probed, e.g. 1s or 500ms"),
          ConfigKey.of("scheduler.default-memory", BYTES, Parsers.MEMORY, Builder::defaultMemoryBytes,
              SchedulerConfig::defaultMemoryBytes, ValueText::bytes, "memory reserved for a task that gives no estimate"),
          ConfigKey.of("scheduler.cores", WHOLE, Parsers.wholeNumber(0), Builder::cores, SchedulerConfig::cores,
              String::valueOf, "cores Berth may hand out to tasks; 0 = every logical CPU"),
          ConfigKey.of("scheduler.load-nretry", WHOLE, Parsers.wholeNumber(1), Builder::loadNretry,
              SchedulerConfig::loadNretry, String::valueOf, "load attempts a two-stage task gets before it fails"),
          ConfigKey.of("scheduler.train-nretry", WHOLE, Parsers.wholeNumber(1), Builder::trainNretry,
              SchedulerConfig::trainNretry, String::valueOf, "train attempts a two-stage task gets before it fails"),
          ConfigKey.of("utilization-limit.cpu", SHARE, Parsers.FRACTION, Builder::cpuUtilizationLimit,
              SchedulerConfig::cpuUtilizationLimit, String::valueOf,
              "no task starts while other processes keep the CPUs at least this busy (niced ones and Berth's own"
                  + " tasks do not count), in (0, 1]"),
          ConfigKey.of("utilization-limit.memory", SHARE, Parsers.FRACTION, Builder::memoryUtilizationLimit,
              SchedulerConfig::memoryUtilizationLimit, String::valueOf,
              "no task starts if it would push host memory use past this fraction, in (0, 1]"),
          ConfigKey.of("remain-limit.memory", BYTES, Parsers.MEMORY, Builder::remainMemoryBytes,
              SchedulerConfig::remainMemoryBytes, ValueText::bytes, "host memory that must stay free after a task starts"),
          ConfigKey.of("scheduler.default-cuda-memory", BYTES, Parsers.MEMORY, Builder::defaultCudaMemoryBytes,
              SchedulerConfig::defaultCudaMemoryBytes, ValueText::bytes, "GPU memory reserved for a task that asks for"
                  + " a GPU (device: cuda, a pin or targets) but gives no gpu-memory"),
          ConfigKey.of("utilization-limit.cuda-memory", SHARE, Parsers.FRACTION, Builder::cudaMemoryUtilizationLimit,
              SchedulerConfig::cudaMemoryUtilizationLimit, String::valueOf,
              "no task is placed on a GPU if it would push that device's memory use past this fraction, in (0, 1]"),
          ConfigKey.of("remain-limit.cuda-memory", BYTES, Parsers.MEMORY, Builder::remainCudaMemoryBytes,
              SchedulerConfig::remainCudaMemoryBytes, ValueText::bytes,
              "GPU memory that must stay free on a device after a task is placed"),
          ConfigKey.of("scheduler.placement", "policy name", Parsers.PLACEMENT, Builder::placement,
              SchedulerConfig::placement, String::valueOf, "how a GPU is chosen among those that fit: best-fit,"
                  + " first-fit, most-free, round-robin, random, auto, leastload, lru, twobin, weighted, pci, total-mem,"
                  + " remain-mem (add -reverse to the last three)"),
          ConfigKey.of("scheduler.max-per-device", WHOLE, Parsers.wholeNumber(0), Builder::maxPerDevice,
              SchedulerConfig::maxPerDevice, String::valueOf, "most Berth tasks on one GPU; 0 = unlimited"),
          ConfigKey.of("scheduler.put-interval", TIME, Parsers.DURATION, Builder::putInterval,
              SchedulerConfig::putInterval, ValueText::duration,
              "under placement auto: least time between two placements on one GPU"),
          ConfigKey.of("scheduler.available-interval", TIME, Parsers.DURATION, Builder::availableInterval,
              SchedulerConfig::availableInterval, ValueText::duration,
              "under placement auto: how long a GPU's free memory must not have dropped before it is used"),
          ConfigKey.of("scheduler.seed", WHOLE, Parsers.WHOLE_LONG, Builder::seed, SchedulerConfig::seed,
              String::valueOf, "seed of the random placement policies (random, twobin, weighted)"),
          ConfigKey.of("scheduler.oom-growth", "number", Parsers.BACKOFF, Builder::oomGrowth, SchedulerConfig::oomGrowth,
              String::valueOf, "factor a task's memory (or GPU memory) reservation grows by after it ran out of it,"
                  + " capped at what fits"),
          ConfigKey.of("scheduler.learn-memory", ON_OFF, Parsers.BOOLEAN, Builder::learnMemory,
              SchedulerConfig::learnMemory, SchedulerKeys::onOff, "learn a task's memory request from the measured"
                  + " peaks of its template's finished tasks (p95 x 1.2, never above the estimate unless an"
                  + " out-of-memory raised it; see docs/learning.md)")
              .asJournaledWhenSet(),
          ConfigKey.of("scheduler.learn-gpu-memory", ON_OFF, Parsers.BOOLEAN, Builder::learnGpuMemory,
              SchedulerConfig::learnGpuMemory, SchedulerKeys::onOff,
              "the same for GPU memory, under every placement policy").asJournaledWhenSet(),
          ConfigKey.of("scheduler.learn-after", WHOLE, Parsers.wholeNumber(1), Builder::learnAfter,
              SchedulerConfig::learnAfter, String::valueOf, "finished tasks of a template (or of one parameter value)"
                  + " a request is learned from at the least").asJournaledWhenSet(),
          ConfigKey.of("scheduler.enforce-memory", "true or false", Parsers.BOOLEAN, Builder::enforceMemory,
              SchedulerConfig::enforceMemory, String::valueOf, "limit each local task's memory to its reservation"
                  + " plus 10% (at least 64 MiB) in its cgroup, so a runaway task is stopped alone as out of memory")
              .asJournaledWhenSet(),
          ConfigKey.of("scheduler.log-cap", BYTES, Parsers.MEMORY, Builder::logCapBytes,
              SchedulerConfig::logCapBytes, ValueText::bytes, "most kept of each local attempt's stdout and stderr"
                  + " log: beyond it the head, a marker line and the latest output").asJournaledWhenSet(),
          ConfigKey.of("scheduler.executor", "local or slurm", Parsers.oneOf(ExecutorKind.values()), Builder::executor,
              SchedulerConfig::executor, String::valueOf,
              "where tasks run: local (processes on this machine) or slurm (batch jobs; see the slurm.* keys)"),
          ConfigKey.of("slurm.max-jobs", WHOLE, Parsers.wholeNumber(0), Builder::maxJobs, SchedulerConfig::maxJobs,
              String::valueOf, "most of the run's jobs pending or running at once (array elements count one each);"
                  + " keep it below your MaxSubmitJobs; 0 = no limit")));

  private SchedulerKeys() {}

  private static String onOff(boolean on) {
    return on ? "on" : "off";
  }
}
