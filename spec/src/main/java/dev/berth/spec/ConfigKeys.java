package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SlurmConfig;
import dev.berth.core.model.SmtpConfig;
import dev.berth.core.settings.Parsers;
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
 * Every supported config key, with its default and meaning, and a way to print a configuration in
 * the same YAML shape a config file uses. Keys follow fedflow's names; {@code scheduler.cores} is
 * Berth's own.
 */
public final class ConfigKeys {

  /**
   * One supported key, for documentation such as {@code berth config --defaults}.
   *
   * @param name the dotted key, e.g. {@code scheduler.max-process}
   * @param defaultValue the default, written as it would be in a config file
   * @param meaning one line for people
   */
  public record Key(String name, String defaultValue, String meaning) {}

  static final List<ConfigEntry<?>> ENTRIES = List.of(
      new ConfigEntry<>("scheduler.max-process", "most task processes alive at once; 0 = unlimited",
          Parsers.wholeNumber(0), SchedulerConfig.Builder::maxProcess, c -> Integer.toString(c.maxProcess())),
      new ConfigEntry<>("scheduler.max-waiting",
          "most two-stage tasks loaded but not yet training; 0 = unlimited",
          Parsers.wholeNumber(0), SchedulerConfig.Builder::maxWaiting, c -> Integer.toString(c.maxWaiting())),
      new ConfigEntry<>("scheduler.interval", "how often host resources are probed, e.g. 1s or 500ms",
          Parsers.DURATION, SchedulerConfig.Builder::interval, c -> durationText(c.interval())),
      new ConfigEntry<>("scheduler.default-memory", "memory reserved for a task that gives no estimate",
          Parsers.MEMORY, SchedulerConfig.Builder::defaultMemoryBytes, c -> bytesText(c.defaultMemoryBytes())),
      new ConfigEntry<>("scheduler.cores", "cores Berth may hand out to tasks; 0 = every logical CPU",
          Parsers.wholeNumber(0), SchedulerConfig.Builder::cores, c -> Integer.toString(c.cores())),
      new ConfigEntry<>("scheduler.load-nretry", "load attempts a two-stage task gets before it fails",
          Parsers.wholeNumber(1), SchedulerConfig.Builder::loadNretry, c -> Integer.toString(c.loadNretry())),
      new ConfigEntry<>("scheduler.train-nretry", "train attempts a two-stage task gets before it fails",
          Parsers.wholeNumber(1), SchedulerConfig.Builder::trainNretry, c -> Integer.toString(c.trainNretry())),
      new ConfigEntry<>("utilization-limit.cpu",
          "no task starts while other processes keep the CPUs at least this busy, in (0, 1]",
          Parsers.FRACTION, SchedulerConfig.Builder::cpuUtilizationLimit,
          c -> Double.toString(c.cpuUtilizationLimit())),
      new ConfigEntry<>("utilization-limit.memory",
          "no task starts if it would push host memory use past this fraction, in (0, 1]",
          Parsers.FRACTION, SchedulerConfig.Builder::memoryUtilizationLimit,
          c -> Double.toString(c.memoryUtilizationLimit())),
      new ConfigEntry<>("remain-limit.memory", "host memory that must stay free after a task starts",
          Parsers.MEMORY, SchedulerConfig.Builder::remainMemoryBytes, c -> bytesText(c.remainMemoryBytes())),
      new ConfigEntry<>("scheduler.default-cuda-memory",
          "GPU memory reserved for a task that asks for a GPU (device: cuda, a pin or targets) but gives no gpu-memory",
          Parsers.MEMORY, SchedulerConfig.Builder::defaultCudaMemoryBytes, c -> bytesText(c.defaultCudaMemoryBytes())),
      new ConfigEntry<>("utilization-limit.cuda-memory",
          "no task is placed on a GPU if it would push that device's memory use past this fraction, in (0, 1]",
          Parsers.FRACTION, SchedulerConfig.Builder::cudaMemoryUtilizationLimit,
          c -> Double.toString(c.cudaMemoryUtilizationLimit())),
      new ConfigEntry<>("remain-limit.cuda-memory", "GPU memory that must stay free on a device after a task is placed",
          Parsers.MEMORY, SchedulerConfig.Builder::remainCudaMemoryBytes, c -> bytesText(c.remainCudaMemoryBytes())),
      new ConfigEntry<>("scheduler.placement",
          "how a GPU is chosen among those that fit: best-fit, first-fit, most-free, round-robin, random, auto,"
              + " leastload, lru, twobin, weighted, pci, total-mem, remain-mem (add -reverse to the last three)",
          Parsers.TEXT, SchedulerConfig.Builder::placement, SchedulerConfig::placement),
      new ConfigEntry<>("scheduler.max-per-device", "most Berth tasks on one GPU; 0 = unlimited",
          Parsers.wholeNumber(0), SchedulerConfig.Builder::maxPerDevice, c -> Integer.toString(c.maxPerDevice())),
      new ConfigEntry<>("scheduler.put-interval", "under placement auto: least time between two placements on one GPU",
          Parsers.DURATION, SchedulerConfig.Builder::putInterval, c -> durationText(c.putInterval())),
      new ConfigEntry<>("scheduler.available-interval",
          "under placement auto: how long a GPU's free memory must not have dropped before it is used",
          Parsers.DURATION, SchedulerConfig.Builder::availableInterval, c -> durationText(c.availableInterval())),
      new ConfigEntry<>("scheduler.seed", "seed of the random placement policies (random, twobin, weighted)",
          Parsers.wholeNumber(0), (b, v) -> b.seed(v), c -> Long.toString(c.seed())),
      new ConfigEntry<>("scheduler.oom-growth",
          "factor a task's memory (or GPU memory) reservation grows by after it ran out of it, capped at what fits",
          Parsers.BACKOFF, SchedulerConfig.Builder::oomGrowth, c -> Double.toString(c.oomGrowth())),
      new ConfigEntry<>("scheduler.learn-usage",
          "under placement auto: learn a group's GPU estimate from the measured peaks of its ended tasks: mean, max"
              + " or off", Parsers.TEXT, SchedulerConfig.Builder::learnUsage, SchedulerConfig::learnUsage),
      new ConfigEntry<>("scheduler.executor",
          "where tasks run: local (processes on this machine) or slurm (batch jobs; see the slurm.* keys)",
          Parsers.TEXT, SchedulerConfig.Builder::executor, SchedulerConfig::executor),
      smtp("enable", "mail the reports", Parsers.BOOLEAN, c -> Boolean.toString(c.enable())),
      smtp("server-host", "SMTP server", Parsers.TEXT, c -> c.serverHost()),
      smtp("server-port", "SMTP port; 0 = 25, or 465 with tls, or 587 with starttls", Parsers.wholeNumber(0),
          c -> Integer.toString(c.serverPort())),
      smtp("user", "login user and sender address", Parsers.TEXT, c -> c.user()),
      smtp("password", "login password (prefer password-env)", Parsers.TEXT, c -> c.password().isEmpty() ? "" : "****"),
      smtp("password-env", "environment variable that holds the password", Parsers.TEXT, c -> c.passwordEnv()),
      smtp("receiver", "who gets the mail: an address or a list", Parsers.TEXT_LIST, c -> "[" + String.join(", ", c.receivers()) + "]"),
      smtp("tls", "connect with TLS (implicit TLS, usually port 465)", Parsers.BOOLEAN, c -> Boolean.toString(c.tls())),
      smtp("starttls", "upgrade the connection with STARTTLS (usually port 587)", Parsers.BOOLEAN,
          c -> Boolean.toString(c.starttls())),
      smtp("min-interval", "least time between two mails of the same kind", Parsers.DURATION,
          c -> durationText(c.minInterval())),
      smtp("max-numbers", "most mails in one run; 0 = no limit", Parsers.wholeNumber(0),
          c -> Integer.toString(c.maxNumbers())),
      smtp("send", "which reports are mailed: group (after each group, as fedflow), run, or both", Parsers.TEXT,
          c -> c.send()),
      slurm("mode", "jobs (one batch job per attempt, arrays for matrices) or allocation (Berth packs tasks inside"
          + " whole allocations)", Parsers.TEXT, c -> c.mode()),
      slurm("partition", "sbatch --partition; empty = the cluster's default", Parsers.TEXT, c -> c.partition()),
      slurm("account", "sbatch --account; empty = your default account", Parsers.TEXT, c -> c.account()),
      slurm("qos", "sbatch --qos; empty = the default", Parsers.TEXT, c -> c.qos()),
      slurm("time", "sbatch --time for tasks without a timeout, and for each allocation; 0s = the partition's"
          + " default", Parsers.DURATION, c -> durationText(c.time())),
      slurm("extra-args", "more sbatch options, one per item, passed as given", Parsers.TEXT_LIST,
          c -> "[" + String.join(", ", c.extraArgs()) + "]"),
      slurm("workdir-root", "shared folder (same path on every node) under which task folders go; empty = the"
          + " run's workdir", Parsers.TEXT, c -> c.workdirRoot()),
      slurm("gpu-memory-gres", "how gpu-memory is asked for: none (a whole GPU), shard, shard:10GiB, or a count"
          + " GRES such as gpumem:1MiB", Parsers.TEXT, c -> c.gpuMemoryGres()),
      slurm("arrays", "submit matrix tasks with the same resources as one job array (--array=0-N%max-process)",
          Parsers.BOOLEAN, c -> Boolean.toString(c.arrays())),
      slurm("max-jobs", "most of the run's jobs pending or running at once (array elements count one each); keep it"
          + " below your MaxSubmitJobs; 0 = no limit", Parsers.wholeNumber(0), c -> Integer.toString(c.maxJobs())),
      slurm("gres", "mode allocation: the GRES of each allocation, e.g. gpu:8", Parsers.TEXT, c -> c.gres()),
      slurm("cpus", "mode allocation: cores of each allocation; 0 = the cluster's default", Parsers.wholeNumber(0),
          c -> Integer.toString(c.cpus())),
      slurm("memory", "mode allocation: memory of each allocation; 0 = the cluster's default", Parsers.MEMORY,
          c -> bytesText(c.memoryBytes())),
      slurm("max-allocations", "mode allocation: most allocations asked for, one after another, while tasks are"
          + " left", Parsers.wholeNumber(1), c -> Integer.toString(c.maxAllocations())),
      slurm("on-exit", "what Ctrl-C does to submitted jobs: ask (on a terminal; elsewhere cancel), cancel them, or leave"
          + " them running for berth resume",
          Parsers.TEXT, c -> c.onExit()),
      slurm("poll-max", "longest wait between two squeue calls while nothing changes", Parsers.POSITIVE_DURATION,
          c -> durationText(c.pollMax())));

  private static <T> ConfigEntry<T> slurm(String key, String meaning, ValueParser<T> parser,
      Function<SlurmConfig, String> shown) {
    return new ConfigEntry<>("slurm." + key, meaning, parser, (b, v) -> b.slurm(b.slurm().with(key, v)),
        c -> shown.apply(c.slurm()));
  }

  private static <T> ConfigEntry<T> smtp(String key, String meaning, ValueParser<T> parser,
      Function<SmtpConfig, String> shown) {
    return new ConfigEntry<>("smtp." + key, meaning, parser, (b, v) -> b.smtp(b.smtp().with(key, v)),
        c -> shown.apply(c.smtp()));
  }

  private ConfigKeys() {}

  /** Every supported key in documentation order, with the default from {@link SchedulerConfig#DEFAULTS}. */
  public static List<Key> all() {
    return ENTRIES.stream()
        .map(e -> new Key(e.key(), e.shown().apply(SchedulerConfig.DEFAULTS), e.meaning()))
        .toList();
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
