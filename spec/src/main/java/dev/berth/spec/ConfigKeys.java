package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SlurmConfig;
import dev.berth.core.model.SmtpConfig;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Setting;
import dev.berth.core.settings.ValueParser;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The table of config keys: every supported key once, with its type, default and meaning, and a way
 * to print a configuration in the same YAML shape a config file uses. Keys follow fedflow's names;
 * {@code scheduler.cores} is Berth's own.
 */
public final class ConfigKeys {

  private static final String WHOLE = "whole number";
  private static final String TIME = "duration";
  private static final String BYTES = "memory size";
  private static final String SHARE = "fraction";
  private static final String TEXT = "text";
  private static final String FLAG = "true or false";
  private static final String TEXTS = "list of text";

  static final List<ConfigEntry<?>> ENTRIES = List.of(
      ConfigEntry.of("scheduler.max-process", WHOLE, Parsers.wholeNumber(0), SchedulerConfig.Builder::maxProcess,
          c -> Integer.toString(c.maxProcess()), "most task processes alive at once; 0 = unlimited"),
      ConfigEntry.of("scheduler.max-waiting", WHOLE, Parsers.wholeNumber(0), SchedulerConfig.Builder::maxWaiting,
          c -> Integer.toString(c.maxWaiting()), "most two-stage tasks loaded but not yet training; 0 = unlimited"),
      ConfigEntry.of("scheduler.interval", TIME, Parsers.DURATION, SchedulerConfig.Builder::interval,
          c -> durationText(c.interval()), "how often host resources are probed, e.g. 1s or 500ms"),
      ConfigEntry.of("scheduler.default-memory", BYTES, Parsers.MEMORY, SchedulerConfig.Builder::defaultMemoryBytes,
          c -> bytesText(c.defaultMemoryBytes()), "memory reserved for a task that gives no estimate"),
      ConfigEntry.of("scheduler.cores", WHOLE, Parsers.wholeNumber(0), SchedulerConfig.Builder::cores,
          c -> Integer.toString(c.cores()), "cores Berth may hand out to tasks; 0 = every logical CPU"),
      ConfigEntry.of("scheduler.load-nretry", WHOLE, Parsers.wholeNumber(1), SchedulerConfig.Builder::loadNretry,
          c -> Integer.toString(c.loadNretry()), "load attempts a two-stage task gets before it fails"),
      ConfigEntry.of("scheduler.train-nretry", WHOLE, Parsers.wholeNumber(1), SchedulerConfig.Builder::trainNretry,
          c -> Integer.toString(c.trainNretry()), "train attempts a two-stage task gets before it fails"),
      ConfigEntry.of("utilization-limit.cpu", SHARE, Parsers.FRACTION, SchedulerConfig.Builder::cpuUtilizationLimit,
          c -> Double.toString(c.cpuUtilizationLimit()),
          "no task starts while other processes keep the CPUs at least this busy, in (0, 1]"),
      ConfigEntry.of("utilization-limit.memory", SHARE, Parsers.FRACTION,
          SchedulerConfig.Builder::memoryUtilizationLimit, c -> Double.toString(c.memoryUtilizationLimit()),
          "no task starts if it would push host memory use past this fraction, in (0, 1]"),
      ConfigEntry.of("remain-limit.memory", BYTES, Parsers.MEMORY, SchedulerConfig.Builder::remainMemoryBytes,
          c -> bytesText(c.remainMemoryBytes()), "host memory that must stay free after a task starts"),
      ConfigEntry.of("scheduler.default-cuda-memory", BYTES, Parsers.MEMORY,
          SchedulerConfig.Builder::defaultCudaMemoryBytes, c -> bytesText(c.defaultCudaMemoryBytes()),
          "GPU memory reserved for a task that asks for a GPU (device: cuda, a pin or targets) but gives no gpu-memory"),
      ConfigEntry.of("utilization-limit.cuda-memory", SHARE, Parsers.FRACTION,
          SchedulerConfig.Builder::cudaMemoryUtilizationLimit, c -> Double.toString(c.cudaMemoryUtilizationLimit()),
          "no task is placed on a GPU if it would push that device's memory use past this fraction, in (0, 1]"),
      ConfigEntry.of("remain-limit.cuda-memory", BYTES, Parsers.MEMORY, SchedulerConfig.Builder::remainCudaMemoryBytes,
          c -> bytesText(c.remainCudaMemoryBytes()), "GPU memory that must stay free on a device after a task is placed"),
      ConfigEntry.of("scheduler.placement", "policy name", Parsers.PLACEMENT, SchedulerConfig.Builder::placement,
          c -> c.placement().label(), "how a GPU is chosen among those that fit: best-fit, first-fit, most-free,"
              + " round-robin, random, auto, leastload, lru, twobin, weighted, pci, total-mem, remain-mem (add"
              + " -reverse to the last three)"),
      ConfigEntry.of("scheduler.max-per-device", WHOLE, Parsers.wholeNumber(0), SchedulerConfig.Builder::maxPerDevice,
          c -> Integer.toString(c.maxPerDevice()), "most Berth tasks on one GPU; 0 = unlimited"),
      ConfigEntry.of("scheduler.put-interval", TIME, Parsers.DURATION, SchedulerConfig.Builder::putInterval,
          c -> durationText(c.putInterval()), "under placement auto: least time between two placements on one GPU"),
      ConfigEntry.of("scheduler.available-interval", TIME, Parsers.DURATION, SchedulerConfig.Builder::availableInterval,
          c -> durationText(c.availableInterval()),
          "under placement auto: how long a GPU's free memory must not have dropped before it is used"),
      ConfigEntry.of("scheduler.seed", WHOLE, Parsers.wholeNumber(0), (b, v) -> b.seed(v), c -> Long.toString(c.seed()),
          "seed of the random placement policies (random, twobin, weighted)"),
      ConfigEntry.of("scheduler.oom-growth", "number", Parsers.BACKOFF, SchedulerConfig.Builder::oomGrowth,
          c -> Double.toString(c.oomGrowth()),
          "factor a task's memory (or GPU memory) reservation grows by after it ran out of it, capped at what fits"),
      ConfigEntry.of("scheduler.learn-usage", "mean, max or off", Parsers.LEARN_USAGE,
          SchedulerConfig.Builder::learnUsage, c -> c.learnUsage().label(), "under placement auto: learn a group's GPU estimate from the measured peaks"
              + " of its ended tasks: mean, max or off"),
      ConfigEntry.of("scheduler.executor", "local or slurm", Parsers.EXECUTOR, SchedulerConfig.Builder::executor,
          c -> c.executor().label(),
          "where tasks run: local (processes on this machine) or slurm (batch jobs; see the slurm.* keys)"),
      smtp("enable", FLAG, Parsers.BOOLEAN, c -> Boolean.toString(c.enable()), "mail the reports"),
      smtp("server-host", TEXT, Parsers.TEXT, c -> c.serverHost(), "SMTP server"),
      smtp("server-port", WHOLE, Parsers.wholeNumber(0), c -> Integer.toString(c.serverPort()),
          "SMTP port; 0 = 25, or 465 with tls, or 587 with starttls"),
      smtp("user", TEXT, Parsers.TEXT, c -> c.user(), "login user and sender address"),
      smtp("password", TEXT, Parsers.TEXT, c -> c.password().isEmpty() ? "" : "****",
          "login password (prefer password-env)"),
      smtp("password-env", TEXT, Parsers.TEXT, c -> c.passwordEnv(), "environment variable that holds the password"),
      smtp("receiver", TEXTS, Parsers.TEXT_LIST, c -> "[" + String.join(", ", c.receivers()) + "]",
          "who gets the mail: an address or a list"),
      smtp("tls", FLAG, Parsers.BOOLEAN, c -> Boolean.toString(c.tls()), "connect with TLS (implicit TLS, usually port 465)"),
      smtp("starttls", FLAG, Parsers.BOOLEAN, c -> Boolean.toString(c.starttls()),
          "upgrade the connection with STARTTLS (usually port 587)"),
      smtp("min-interval", TIME, Parsers.DURATION, c -> durationText(c.minInterval()),
          "least time between two mails of the same kind"),
      smtp("max-numbers", WHOLE, Parsers.wholeNumber(0), c -> Integer.toString(c.maxNumbers()),
          "most mails in one run; 0 = no limit"),
      smtp("send", "group, run or both", Parsers.TEXT, c -> c.send(),
          "which reports are mailed: group (after each group, as fedflow), run, or both"),
      slurm("mode", "jobs or allocation", Parsers.TEXT, c -> c.mode(), "jobs (one batch job per attempt, arrays for"
          + " matrices) or allocation (Berth packs tasks inside whole allocations)"),
      slurm("partition", TEXT, Parsers.TEXT, c -> c.partition(), "sbatch --partition; empty = the cluster's default"),
      slurm("account", TEXT, Parsers.TEXT, c -> c.account(), "sbatch --account; empty = your default account"),
      slurm("qos", TEXT, Parsers.TEXT, c -> c.qos(), "sbatch --qos; empty = the default"),
      slurm("time", TIME, Parsers.DURATION, c -> durationText(c.time()),
          "sbatch --time for tasks without a timeout, and for each allocation; 0s = the partition's default"),
      slurm("extra-args", TEXTS, Parsers.TEXT_LIST, c -> "[" + String.join(", ", c.extraArgs()) + "]",
          "more sbatch options, one per item, passed as given"),
      slurm("workdir-root", TEXT, Parsers.TEXT, c -> c.workdirRoot(),
          "shared folder (same path on every node) under which task folders go; empty = the run's workdir"),
      slurm("gpu-memory-gres", TEXT, Parsers.TEXT, c -> c.gpuMemoryGres(), "how gpu-memory is asked for: none (a"
          + " whole GPU), shard, shard:10GiB, or a count GRES such as gpumem:1MiB"),
      slurm("arrays", FLAG, Parsers.BOOLEAN, c -> Boolean.toString(c.arrays()),
          "submit matrix tasks with the same resources as one job array (--array=0-N%max-process)"),
      slurm("max-jobs", WHOLE, Parsers.wholeNumber(0), c -> Integer.toString(c.maxJobs()), "most of the run's jobs"
          + " pending or running at once (array elements count one each); keep it below your MaxSubmitJobs; 0 = no limit"),
      slurm("gres", TEXT, Parsers.TEXT, c -> c.gres(), "mode allocation: the GRES of each allocation, e.g. gpu:8"),
      slurm("cpus", WHOLE, Parsers.wholeNumber(0), c -> Integer.toString(c.cpus()),
          "mode allocation: cores of each allocation; 0 = the cluster's default"),
      slurm("memory", BYTES, Parsers.MEMORY, c -> bytesText(c.memoryBytes()),
          "mode allocation: memory of each allocation; 0 = the cluster's default"),
      slurm("max-allocations", WHOLE, Parsers.wholeNumber(1), c -> Integer.toString(c.maxAllocations()),
          "mode allocation: most allocations asked for, one after another, while tasks are left"),
      slurm("on-exit", "ask, cancel or leave", Parsers.TEXT, c -> c.onExit(), "what Ctrl-C does to submitted jobs:"
          + " ask (on a terminal; elsewhere cancel), cancel them, or leave them running for berth resume"),
      slurm("poll-max", TIME, Parsers.POSITIVE_DURATION, c -> durationText(c.pollMax()),
          "longest wait between two squeue calls while nothing changes"));

  private static <T> ConfigEntry<T> slurm(String key, String type, ValueParser<T> parser,
      Function<SlurmConfig, String> shown, String docs) {
    return ConfigEntry.of("slurm." + key, type, parser, (b, v) -> b.slurm(b.slurm().with(key, v)),
        c -> shown.apply(c.slurm()), docs);
  }

  private static <T> ConfigEntry<T> smtp(String key, String type, ValueParser<T> parser,
      Function<SmtpConfig, String> shown, String docs) {
    return ConfigEntry.of("smtp." + key, type, parser, (b, v) -> b.smtp(b.smtp().with(key, v)),
        c -> shown.apply(c.smtp()), docs);
  }

  private ConfigKeys() {}

  /** Every supported key in documentation order, with the default from {@link SchedulerConfig#DEFAULTS}. */
  public static List<Setting<?>> all() {
    return ENTRIES.stream().<Setting<?>>map(ConfigEntry::setting).toList();
  }

  /** Each key's value in {@code config}, in documentation order, written as a config file would. */
  public static Map<String, String> values(SchedulerConfig config) {
    Map<String, String> values = new LinkedHashMap<>();
    for (ConfigEntry<?> e : ENTRIES) {
      values.put(e.key(), e.shown().apply(config));
    }
    return values;
  }

  /**
   * {@code config} as nested YAML, the shape of a config file or of a spec's {@code config:} block:
   *
   * <pre>
   * scheduler:
   *   max-process: 20
   *   ...
   * </pre>
   */
  public static String toYaml(SchedulerConfig config) {
    StringBuilder out = new StringBuilder();
    Map<String, String> values = values(config);
    for (String section : sections()) {
      out.append(section).append(":\n");
      values.forEach((key, value) -> {
        if (key.startsWith(section + ".")) {
          out.append("  ").append(key.substring(section.length() + 1)).append(": ")
              .append(value.isEmpty() ? "\"\"" : value).append('\n');
        }
      });
    }
    return out.toString();
  }

  /** The entry for a dotted key. */
  static Optional<ConfigEntry<?>> entry(String key) {
    return ENTRIES.stream().filter(e -> e.key().equals(key)).findFirst();
  }

  /** The sections keys live in, e.g. {@code scheduler}. */
  static Set<String> sections() {
    Set<String> sections = new LinkedHashSet<>();
    ENTRIES.forEach(e -> sections.add(e.section()));
    return sections;
  }

  /** Bytes in the largest unit that divides them exactly, e.g. 2GB or 512MiB, so the text reads back. */
  static String bytesText(long bytes) {
    String[] names = {"PB", "PiB", "TB", "TiB", "GB", "GiB", "MB", "MiB", "kB", "KiB"};
    long[] sizes = {1_000_000_000_000_000L, 1L << 50, 1_000_000_000_000L, 1L << 40, 1_000_000_000L, 1L << 30,
        1_000_000L, 1L << 20, 1_000L, 1L << 10};
    String best = Long.toString(bytes);
    long bestNumber = bytes;
    for (int i = 0; i < names.length && bytes != 0; i++) {
      if (bytes % sizes[i] == 0 && bytes / sizes[i] < bestNumber) {
        bestNumber = bytes / sizes[i];
        best = bestNumber + names[i];
      }
    }
    return best;
  }

  /** A duration in whole units, e.g. 1s, 500ms or 1h30m, so the text reads back. */
  static String durationText(Duration duration) {
    long ms = duration.toMillis();
    if (ms == 0) {
      return "0s";
    }
    String[] names = {"d", "h", "m", "s", "ms"};
    long[] sizes = {86_400_000, 3_600_000, 60_000, 1_000, 1};
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      if (ms >= sizes[i]) {
        out.append(ms / sizes[i]).append(names[i]);
        ms %= sizes[i];
      }
    }
    return out.toString();
  }
}
