package dev.berth.core.model;

import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.settings.DependencyPatterns;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Setting;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Every task key, once: the one place a task key is added. The YAML reader, the Java builders,
 * the docs and the README all take the keys from here.
 */
public final class TaskKeys {

  /** The next free slot of a carried key; counts up as the keys below are made, in order. */
  private static int slots;

  private static final String TIMES = Setting.DURATION;
  private static final String BYTES = Setting.MEMORY_SIZE;
  private static final String PATTERNS = "ids, globs or group:NAME";

  /** The task's id. */
  public static final TaskKey<String> ID = TaskKey.own(new Setting<>("id", "text", Parsers.TEXT, "required",
      "unique in the run; letters, digits and . _ - + = @ , at most 255 of them (it names the task's folder)"));

  /** The argument vector. */
  public static final TaskKey<List<String>> COMMAND = TaskKey.own(new Setting<>("command", "list of text",
      TaskValueParsers.COMMAND, "required",
      "argument vector; never run through a shell (write [sh, -c, \"...\"] for one)"))
      .carriedAs(carried(List.of(), List::copyOf));

  /** The variables a task expands over. */
  public static final TaskKey<Map<String, List<String>>> MATRIX = TaskKey.own(new Setting<>("matrix",
      "mapping of lists", TaskValueParsers.MATRIX, "none",
      "one task per combination, e.g. {lr: [0.1, 0.01], seed: [1, 2]}; {lr} in the id, command, env and"
          + " dependencies takes each value"));

  /** The class of a Java task. */
  public static final TaskKey<String> JAVA = TaskKey.own(new Setting<>("java", "class name",
      TaskValueParsers.CLASS_NAME, "none",
      "instead of command: a class implementing dev.berth.task.BerthTask, run in a child JVM (two-stage)"));

  /** The class path of a Java task. */
  public static final TaskKey<List<String>> CLASSPATH = TaskKey.own(new Setting<>("classpath", "list of text",
      Parsers.TEXT_LIST, "[]", "class path of a java task, relative to the spec's folder unless absolute"));

  /** The JVM options of a Java task. */
  public static final TaskKey<List<String>> JVM_ARGS = TaskKey.own(new Setting<>("jvm-args", "list of text",
      Parsers.TEXT_LIST, "[]", "JVM options of a java task, e.g. -Xmx4g"));

  /** The Python function a call task runs. */
  public static final TaskKey<String> CALL = TaskKey.own(new Setting<>("call", "package.module:function",
      TaskValueParsers.FUNCTION, "none", "instead of command: a Python function called with the matrix values and"
          + " params as keyword arguments; its returned mapping is the result (docs/pools.md)"));

  /**
   * The engine pool a call or Java task runs in: a spec names it ({@code pool: fast}) and its front door
   * puts the pool it defines on the task, name and settings, which the journal stores as {@link
   * PoolSpec#settings()}.
   */
  public static final TaskKey<PoolSpec> POOL = TaskKey.own(new Setting<>("pool", "pool name", PoolSpec.PARSER, "none",
      "the engine pool (under pools:) whose warm engines run this call or java task; without it each runs as a process"))
      .carriedAs(new TaskKey.Carried<>(slots++, null, pool -> pool, PoolSpec::settings, true));

  /** More keyword arguments of a call task. */
  public static final TaskKey<Map<String, ?>> PARAMS = TaskKey.own(new Setting<>("params", "mapping",
      TaskValueParsers.MAPPING, "{}", "keyword arguments of a call task besides its matrix values, e.g. {epochs: 3}"));

  /** Environment variables; a task's are added to its group's. */
  public static final TaskKey<Map<String, String>> ENV = TaskKey.of(new Setting<>("env", "mapping",
      TaskValueParsers.ENV, "{}", "environment variables; a task's are added to its group's"), TaskSpec.Builder::env)
      .mergedWith(TaskValueParsers::union).filledBy(TaskValueParsers::fillEnv)
      .carriedAs(carried(Collections.emptySortedMap(), TaskKeys::sortedEnv));

  /** Host memory reserved for the task. */
  public static final TaskKey<Long> MEMORY = TaskKey.of(new Setting<>("memory", BYTES, Parsers.MEMORY,
      "scheduler.default-memory", "host memory reserved for the task, e.g. 512MiB or 2GB"))
      .orElse(SchedulerConfig::defaultMemoryBytes).carriedAs(carried(0L));

  /** Cores the task uses. */
  public static final TaskKey<Double> CPUS = TaskKey.of(new Setting<>("cpus", "number", Parsers.CORES, "1",
      "cores the task uses; may be fractional or 0"))
      .carriedAs(new TaskKey.Carried<>(slots++, 1.0, cores -> Resources.milliCpus(cores) / 1000.0,
          cores -> BigDecimal.valueOf(Resources.milliCpus(cores), 3).stripTrailingZeros(), false));

  /** Start order. */
  public static final TaskKey<Integer> PRIORITY = TaskKey.of(new Setting<>("priority", "whole number",
      Parsers.wholeNumber(Integer.MIN_VALUE), "0", "start order: higher first, ties keep the order written"))
      .carriedAs(carried(0));

  /** Tasks that must end (as the edge says) before this one starts. */
  public static final TaskKey<DependencyPatterns> AFTER = dependency("after",
      "tasks that must all succeed before this one starts, or {tasks: [...], all: false, success: false,"
          + " failure: true}");

  /** Tasks whose device this one must run on. */
  public static final TaskKey<DependencyPatterns> FOLLOW = dependency("follow",
      "tasks whose device this one runs on, once they all succeeded; the same forms as after");

  /** Retries after ordinary failures. */
  public static final TaskKey<Integer> RETRIES = TaskKey.of(new Setting<>("retries", "whole number",
      Parsers.wholeNumber(0), "0", "retries after ordinary failures: at most retries + 1 attempts"))
      .carriedAs(carried(0));

  /** Wait before the first retry. */
  public static final TaskKey<Duration> RETRY_DELAY = TaskKey.of(new Setting<>("retry-delay", TIMES,
      Parsers.DURATION, "0s", "wait before the first retry")).carriedAs(carried(Duration.ZERO));

  /** Factor the retry wait grows by. */
  public static final TaskKey<Double> RETRY_BACKOFF = TaskKey.of(new Setting<>("retry-backoff", "number",
      Parsers.BACKOFF, "2", "factor the retry wait grows by for each further retry; 1 keeps it constant"))
      .carriedAs(carried(2.0));

  /** Cap on the retry wait. */
  public static final TaskKey<Duration> RETRY_DELAY_MAX = TaskKey.of(new Setting<>("retry-delay-max", TIMES,
      Parsers.DURATION, "10m", "cap on the retry wait")).carriedAs(carried(Duration.ofMinutes(10)));

  /** Longest wait for dependencies and resources. */
  public static final TaskKey<Duration> QUEUE_TIMEOUT = TaskKey.of(new Setting<>("queue-timeout", TIMES,
      Parsers.POSITIVE_DURATION, "none", "longest wait for dependencies and resources before the task ends as"
          + " timed out")).carriedAs(carried(null));

  /** Longest run of one attempt. */
  public static final TaskKey<Duration> TIMEOUT = TaskKey.of(new Setting<>("timeout", TIMES,
      Parsers.POSITIVE_DURATION, "none", "longest run of one attempt before it is killed"))
      .carriedAs(carried(null));

  /** GPU memory on one device. */
  public static final TaskKey<Long> GPU_MEMORY = TaskKey.of(new Setting<>("gpu-memory", BYTES,
      Parsers.MEMORY, "none", "a share of one GPU's memory; scheduler.default-cuda-memory when the task asks"
          + " for a GPU without it")).carriedAs(carried(0L));

  /** Whole GPUs. */
  public static final TaskKey<Integer> GPUS = TaskKey.of(new Setting<>("gpus", "whole number",
      Parsers.wholeNumber(0), "0", "whole GPUs, used exclusively; instead of gpu-memory")).carriedAs(carried(0));

  /** The device. */
  public static final TaskKey<String> DEVICE = TaskKey.of(new Setting<>("device", "cpu, cuda or cuda:N",
      Parsers.DEVICE, "none", "cpu (no GPU), cuda (any GPU) or cuda:N (that GPU)"), TaskSpec.Builder::device)
      .carriedAs(carried(null)); // a task holds cuda:N, or none: cpu and cuda are settled when it is built

  /** The GPUs the task may use. */
  public static final TaskKey<List<Integer>> TARGETS = TaskKey.of(new Setting<>("targets", "GPU indices",
      Parsers.DEVICE_INDICES, "all", "the GPUs the task may use, by index, e.g. [0, 1]"),
      TaskSpec.Builder::targets).carriedAs(carried(List.of(), List::copyOf));

  /** The GPU placement policy. */
  public static final TaskKey<PlacementPolicyName> PLACEMENT = TaskKey.of(new Setting<>("placement", "policy name",
      Parsers.PLACEMENT, "scheduler.placement", "GPU placement policy for this task, e.g. best-fit"))
      .carriedAs(carried(null));

  /** Whether a retry avoids the devices where the task failed. */
  public static final TaskKey<Boolean> BLACKLIST = TaskKey.of(new Setting<>("blacklist", "true or false",
      Parsers.BOOLEAN, "true", "whether a retry avoids the GPUs where the task failed, while others are left")).carriedAs(carried(true));

  /** Whether the task speaks the load/train protocol. */
  public static final TaskKey<Boolean> TWO_STAGE = TaskKey.of(new Setting<>("two-stage", "true or false",
      Parsers.BOOLEAN, "false; true for java", "the command speaks Berth's load/train protocol (docs/protocol.md)"))
      .carriedAs(carried(false));

  /** Whether a local attempt's memory is limited to its reservation. */
  public static final TaskKey<Boolean> ENFORCE_MEMORY = TaskKey.of(new Setting<>("enforce-memory", "true or false",
      Parsers.BOOLEAN, "scheduler.enforce-memory", "limit each local attempt's memory to its reservation in its"
          + " cgroup (docs/containment.md)"))
      .carriedAs(new TaskKey.Carried<>(slots++, null, limit -> limit, limit -> limit, true));

  /**
   * The sbatch options of a group's (or a task's) jobs over the run's {@code slurm:} block, as written:
   * the Slurm adapter declares which keys a group may set and reads them with its own parsers, and the
   * spec reader checks them there. A task's are added over its group's.
   */
  public static final TaskKey<Map<String, ?>> SLURM = TaskKey.of(new Setting<>("slurm", "mapping",
      TaskValueParsers.OPTIONS, "the run's slurm:", "on Slurm, these tasks' own partition, account, qos, time,"
          + " constraint, extra-args, requeue and signal over the run's, and a group's max-jobs: the most of its"
          + " jobs pending or running at once (docs/slurm.md)"))
      .mergedWith(TaskValueParsers::unionOfOptions)
      .carriedAs(new TaskKey.Carried<>(slots++, null, TaskValueParsers::sortedOptions, options -> options, true));

  /** Every task key, in the order they are documented. */
  public static final List<TaskKey<?>> ALL = List.of(ID, COMMAND, MATRIX, JAVA, CLASSPATH, JVM_ARGS, CALL, POOL,
      PARAMS, ENV, MEMORY,
      CPUS, PRIORITY, AFTER, FOLLOW, RETRIES, RETRY_DELAY, RETRY_BACKOFF, RETRY_DELAY_MAX, QUEUE_TIMEOUT, TIMEOUT,
      GPU_MEMORY, GPUS, DEVICE, TARGETS, PLACEMENT, BLACKLIST, TWO_STAGE, ENFORCE_MEMORY, SLURM);

  /** Made once: every task a matrix expands into walks them several times. */
  private static final List<TaskKey<?>> GROUP_KEYS = ALL.stream().filter(TaskKey::groupMaySet).toList();

  /** The keys a task carries, by slot. */
  private static final List<TaskKey<?>> CARRIED = ALL.stream().filter(k -> k.carried() != null)
      .sorted(java.util.Comparator.comparingInt(TaskKey::slot)).toList();

  /** The settings of a task that sets nothing: each carried key's initial value. */
  private static final Settings INITIAL = initial();

  private TaskKeys() {}

  /** The keys a group may set for its tasks, in documentation order. */
  public static List<TaskKey<?>> groupKeys() {
    return GROUP_KEYS;
  }

  /** The keys a task carries ({@link dev.berth.core.model.TaskSpec#get}), in slot order. */
  public static List<TaskKey<?>> carried() {
    return CARRIED;
  }

  /** The settings of a task that sets nothing, to build a task's from. */
  public static Settings initialSettings() {
    return INITIAL;
  }

  /** Every key as written, in documentation order. */
  public static List<String> names() {
    return ALL.stream().map(TaskKey::key).toList();
  }

  /** The rows of the table, for docs. */
  public static List<Setting<?>> settings() {
    return ALL.stream().<Setting<?>>map(TaskKey::setting).toList();
  }

  private static TaskKey<DependencyPatterns> dependency(String key, String docs) {
    return new TaskKey<DependencyPatterns>(new Setting<>(key, PATTERNS, DependencyPatterns::parse, "none", docs),
        true, (group, task) -> task, null, null, DependencyPatterns::filled, null);
  }

  /** A key a task carries in the next slot, holding its values as parsed. */
  private static <T> TaskKey.Carried<T> carried(T initial) {
    return carried(initial, value -> value);
  }

  /** A key a task carries in the next slot, holding its values in the form {@code canonical} gives. */
  private static <T> TaskKey.Carried<T> carried(T initial, UnaryOperator<T> canonical) {
    return new TaskKey.Carried<>(slots++, initial, canonical, TaskKeys::stored, false);
  }

  /** A value as the journal stores it: durations in ISO-8601 ({@code PT1S}), choices by name, the rest as is. */
  private static Object stored(Object value) {
    return value instanceof Duration || value instanceof PlacementPolicyName ? value.toString() : value;
  }

  private static Map<String, String> sortedEnv(Map<String, String> env) {
    return env.isEmpty() ? Collections.emptySortedMap() : Collections.unmodifiableSortedMap(new TreeMap<>(env));
  }

  private static Settings initial() {
    Settings.Builder settings = Settings.builder(CARRIED.size());
    for (int slot = 0; slot < CARRIED.size(); slot++) {
      if (CARRIED.get(slot).slot() != slot) {
        throw new IllegalStateException("task key " + CARRIED.get(slot).key() + " has slot "
            + CARRIED.get(slot).slot() + ", not " + slot);
      }
      put(settings, CARRIED.get(slot));
    }
    return settings.build();
  }

  private static <T> void put(Settings.Builder settings, TaskKey<T> key) {
    settings.set(key, key.initial());
  }
}
