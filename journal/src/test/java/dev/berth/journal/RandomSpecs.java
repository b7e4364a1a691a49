package dev.berth.journal;

import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.ExecutorKind;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.RetryPolicy;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.report.MailSend;
import dev.berth.report.NotifySettings;
import dev.berth.report.SmtpKeys;
import dev.berth.report.SmtpSettings;
import dev.berth.report.WebhookEvent;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.runtime.exec.LocalSettings;
import dev.berth.slurm.SlurmConfig;
import dev.berth.slurm.SlurmKeys;
import dev.berth.slurm.SlurmMode;
import dev.berth.spi.JobsOnExit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;

/** Random valid specs that set every field of the model, for round-trip tests. */
final class RandomSpecs {

  /** The adapters' tables, as the session gives them to the journal. */
  static final List<SettingsTable<?, ?>> ADAPTERS = List.of(LocalKeys.TABLE, SmtpKeys.TABLE, NotifySettings.TABLE,
      SlurmKeys.TABLE);

  private static final String NAME_CHARS = "abcXYZ019._-";
  private static final String ENV_CHARS = "abcXYZ019_";
  private static final String ID_CHARS = "abcXYZ019._+=@,-";
  private static final List<PlacementPolicyName> POLICIES = List.of(PlacementPolicyName.values());

  private final Random random;

  RandomSpecs(long seed) {
    this.random = new Random(seed);
  }

  RunSpec run() {
    boolean parallel = random.nextBoolean();
    List<GroupSpec> groups = new ArrayList<>();
    List<TaskId> earlier = new ArrayList<>();
    int groupCount = 1 + random.nextInt(4);
    for (int g = 0; g < groupCount; g++) {
      String group = "g" + g + name(0);
      List<TaskSpec> tasks = new ArrayList<>();
      int taskCount = random.nextInt(5);
      for (int t = 0; t < taskCount; t++) {
        TaskId id = TaskId.of("t" + g + "-" + t + text(ID_CHARS, 0, 6));
        tasks.add(task(id, group, earlier));
      }
      tasks.forEach(t -> earlier.add(t.id()));
      groups.add(new GroupSpec(group, tasks));
    }
    String runName = "r" + name(0);
    String workdir = any();
    SchedulerConfig config = config();
    LocalSettings local = local();
    RunSpec run = new RunSpec(runName, workdir, config, groups, parallel,
        random.nextBoolean() ? "auto" : "sim:2x80GiB", reporting());
    run = LocalKeys.TABLE.into(run, local);
    run = SmtpKeys.TABLE.into(run, smtp());
    run = NotifySettings.TABLE.into(run, notifySettings());
    return SlurmKeys.TABLE.into(run, slurm());
  }

  /** The spec as the journal stores it: without the SMTP password. */
  /** The spec without its secrets (the SMTP password, the webhook address), which the journal never keeps. */
  static RunSpec withoutPassword(RunSpec spec) {
    RunSpec noPassword = SmtpKeys.TABLE.into(spec, SmtpKeys.TABLE.of(spec).toBuilder().password("").build());
    NotifySettings notify = NotifySettings.TABLE.of(spec);
    return NotifySettings.TABLE.into(noPassword, new NotifySettings(Optional.empty(), notify.urlEnv(), notify.on()));
  }

  private TaskSpec task(TaskId id, String group, List<TaskId> earlier) {
    SortedMap<String, String> env = new TreeMap<>();
    SortedMap<String, String> params = new TreeMap<>();
    for (int i = random.nextInt(3); i > 0; i--) {
      env.put("V" + text(ENV_CHARS, 0, 8), anyArgument()); // a variable's name is an identifier; its value any C string
      params.put(anyName(), any());
    }
    List<String> command = new ArrayList<>(List.of("p" + anyArgument())); // the program is named; its arguments any C string
    for (int i = random.nextInt(4); i > 0; i--) {
      command.add(anyArgument());
    }
    TaskSpec.Builder task = TaskSpec.builder(id.value(), group).command(command).env(env).memoryBytes(size())
        .cpus(random.nextInt(1_000_000_000) / 1000.0).priority(random.nextInt()).params(params)
        .retry(new RetryPolicy(random.nextInt(10), duration(), 1 + random.nextDouble() * 3, duration()))
        .gpu(gpu()).twoStage(random.nextBoolean());
    dependency(earlier).ifPresent(task::after);
    dependency(earlier).ifPresent(task::follow);
    optionalDuration().ifPresent(task::queueTimeout);
    optionalDuration().ifPresent(task::timeout);
    return task.build();
  }

  private Optional<Dependency> dependency(List<TaskId> earlier) {
    if (earlier.isEmpty() || random.nextBoolean()) {
      return Optional.empty();
    }
    List<TaskId> tasks = new ArrayList<>();
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      TaskId t = earlier.get(random.nextInt(earlier.size()));
      if (!tasks.contains(t)) {
        tasks.add(t);
      }
    }
    boolean success = random.nextBoolean();
    return Optional.of(new Dependency(tasks, random.nextBoolean(), success, !success || random.nextBoolean()));
  }

  private GpuRequest gpu() {
    switch (random.nextInt(3)) {
      case 0:
        return GpuRequest.NONE;
      case 1: {
        OptionalInt pin = random.nextBoolean() ? OptionalInt.of(random.nextInt(8)) : OptionalInt.empty();
        List<Integer> targets = pin.isPresent() ? List.of(pin.getAsInt(), 9) : List.of(1, 3);
        return new GpuRequest(1 + size(), 0, pin, random.nextBoolean() ? targets : List.of(), policy(),
            random.nextBoolean());
      }
      default:
        return new GpuRequest(0, 1 + random.nextInt(4), OptionalInt.empty(), List.of(0, 1, 2, 3), policy(),
            random.nextBoolean());
    }
  }

  private SchedulerConfig config() {
    return SchedulerConfig.builder()
        .set(SchedulerKeys.MAX_PROCESS, random.nextInt(100))
        .set(SchedulerKeys.MAX_WAITING, random.nextInt(100))
        .set(SchedulerKeys.INTERVAL, duration().plusNanos(1))
        .set(SchedulerKeys.DEFAULT_MEMORY, size())
        .set(SchedulerKeys.CORES, random.nextInt(64))
        .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, fraction())
        .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, fraction())
        .set(SchedulerKeys.REMAIN_MEMORY, size())
        .set(SchedulerKeys.LOAD_NRETRY, 1 + random.nextInt(5))
        .set(SchedulerKeys.TRAIN_NRETRY, 1 + random.nextInt(5))
        .set(SchedulerKeys.DEFAULT_CUDA_MEMORY, size())
        .set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, fraction())
        .set(SchedulerKeys.REMAIN_CUDA_MEMORY, size())
        .set(SchedulerKeys.PLACEMENT, POLICIES.get(random.nextInt(POLICIES.size())))
        .set(SchedulerKeys.MAX_PER_DEVICE, random.nextInt(8))
        .set(SchedulerKeys.PUT_INTERVAL, duration())
        .set(SchedulerKeys.AVAILABLE_INTERVAL, duration())
        .set(SchedulerKeys.SEED, random.nextLong())
        .set(SchedulerKeys.OOM_GROWTH, 1 + random.nextDouble() * 99)
        .set(SchedulerKeys.EXECUTOR, random.nextBoolean() ? ExecutorKind.LOCAL : ExecutorKind.SLURM)
        .set(SchedulerKeys.MAX_JOBS, random.nextInt(5000))
        .build();
  }

  private LocalSettings local() {
    return LocalSettings.builder().logCapBytes((64L << 10) + random.nextInt(1 << 30))
        .enforceMemory(random.nextBoolean()).build();
  }

  private SmtpSettings smtp() {
    boolean tls = random.nextBoolean();
    return SmtpSettings.builder().enable(random.nextBoolean()).serverHost("mail" + name(0)).serverPort(random.nextInt(65536))
        .user(any()).password(any()).receivers(List.of(name(0) + "@x", name(0) + "@y")).tls(tls)
        .starttls(!tls && random.nextBoolean()).minInterval(duration()).maxNumbers(random.nextInt(50))
        .send(MailSend.values()[random.nextInt(3)]).build();
  }

  private SlurmConfig slurm() {
    return SlurmConfig.builder().set(SlurmKeys.MODE, SlurmMode.values()[random.nextInt(2)])
        .set(SlurmKeys.PARTITION, "p" + random.nextInt(9))
        .set(SlurmKeys.ACCOUNT, random.nextBoolean() ? "" : "acct").set(SlurmKeys.TIME, duration())
        .set(SlurmKeys.EXTRA_ARGS, List.of("--constraint=c" + random.nextInt(9)))
        .set(SlurmKeys.WORKDIR_ROOT, random.nextBoolean() ? "" : "/shared/" + random.nextInt(9))
        .set(SlurmKeys.ARRAYS, random.nextBoolean())
        .set(SlurmKeys.GRES, random.nextBoolean() ? "" : "gpu:" + (1 + random.nextInt(8)))
        .set(SlurmKeys.CPUS, random.nextInt(64)).set(SlurmKeys.MEMORY, size())
        .set(SlurmKeys.MAX_ALLOCATIONS, 1 + random.nextInt(9))
        .set(SlurmKeys.ON_EXIT, JobsOnExit.values()[random.nextInt(3)])
        .set(SlurmKeys.POLL_MAX, duration().plusMillis(1)).set(SlurmKeys.RETRY_FOR, duration().plusSeconds(1)).build();
  }

  private NotifySettings notifySettings() {
    boolean byAddress = random.nextBoolean();
    return new NotifySettings(byAddress ? Optional.of("https://example.org/hook?t=" + name(0)) : Optional.empty(),
        !byAddress && random.nextBoolean() ? Optional.of("HOOK_" + random.nextInt(9)) : Optional.empty(),
        random.nextBoolean() ? List.of(WebhookEvent.RUN_END, WebhookEvent.TASK_FAILED) : List.of());
  }

  private Reporting reporting() {
    return new Reporting(random.nextBoolean() ? Optional.of(any()) : Optional.empty(), random.nextBoolean());
  }

  private Optional<PlacementPolicyName> policy() {
    return random.nextBoolean() ? Optional.of(POLICIES.get(random.nextInt(POLICIES.size()))) : Optional.empty();
  }

  private double fraction() {
    return random.nextInt(4) == 0 ? 1.0 : Math.max(Double.MIN_VALUE, random.nextDouble());
  }

  private long size() {
    return switch (random.nextInt(4)) {
      case 0 -> 0;
      case 1 -> Long.MAX_VALUE - random.nextInt(10);
      default -> random.nextLong() & 0xfffffffffffL;
    };
  }

  private Duration duration() {
    return Duration.ofSeconds(random.nextInt(100_000), random.nextInt(1_000_000_000));
  }

  private Optional<Duration> optionalDuration() {
    return random.nextBoolean() ? Optional.of(duration().plusNanos(1)) : Optional.empty();
  }

  private String name(int min) {
    return text(NAME_CHARS, min, 8);
  }

  private String text(String chars, int min, int max) {
    StringBuilder s = new StringBuilder();
    for (int i = min + random.nextInt(max - min + 1); i > 0; i--) {
      s.append(chars.charAt(random.nextInt(chars.length())));
    }
    return s.toString();
  }

  /**
   * Any text that is well-formed Unicode (lone surrogates dropped): an object key, which JSON
   * readers hold to that although values may carry lone surrogates.
   */
  String anyName() {
    String s = any();
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        out.append(c).append(s.charAt(++i));
      } else if (!Character.isSurrogate(c)) {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** Any text: quotes, backslashes, control characters, non-ASCII, emoji and lone surrogates. */
  /** Any text a program's argument or environment can carry: all but NUL, which ends a C string. */
  String anyArgument() {
    return any().replace('\0', '\1');
  }

  String any() {
    StringBuilder s = new StringBuilder();
    for (int i = random.nextInt(12); i > 0; i--) {
      switch (random.nextInt(8)) {
        case 0 -> s.append((char) random.nextInt(0x20));
        case 1 -> s.append("\"\\/");
        case 2 -> s.append("é€中");
        case 3 -> s.append("\uD83D\uDE80");
        case 4 -> s.append(random.nextBoolean() ? '\uD800' : '\uDFFF');
        case 5 -> s.append((char) random.nextInt(0x10000));
        default -> s.append((char) ('a' + random.nextInt(26)));
      }
    }
    return s.toString();
  }
}
