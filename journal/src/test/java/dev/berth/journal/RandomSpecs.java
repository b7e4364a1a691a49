package dev.berth.journal;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.ExecutorKind;
import dev.berth.core.model.RetryPolicy;
import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.Resources;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SlurmConfig;
import dev.berth.core.model.SmtpConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
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

  private static final String NAME_CHARS = "abcXYZ019._-";
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
    return new RunSpec("r" + name(0), any(), config(), groups, parallel, random.nextBoolean() ? "auto" : "sim:2x80GiB",
        reporting());
  }

  /** The spec as the journal stores it: without the SMTP password. */
  static RunSpec withoutPassword(RunSpec spec) {
    SchedulerConfig c = spec.config();
    SchedulerConfig blank = c.toBuilder().smtp(c.smtp().with("password", "")).build();
    return new RunSpec(spec.name(), spec.workdir(), blank, spec.groups(), spec.groupsInParallel(), spec.gpus(),
        spec.reporting());
  }

  private TaskSpec task(TaskId id, String group, List<TaskId> earlier) {
    SortedMap<String, String> env = new TreeMap<>();
    SortedMap<String, String> params = new TreeMap<>();
    for (int i = random.nextInt(3); i > 0; i--) {
      env.put("V" + anyName(), any());
      params.put(anyName(), any());
    }
    List<String> command = new ArrayList<>();
    for (int i = 1 + random.nextInt(4); i > 0; i--) {
      command.add(any());
    }
    return new TaskSpec(id, group, command, env, new Resources(size(), random.nextLong() & 0xffffffffffL),
        random.nextInt(), params, dependency(earlier), dependency(earlier),
        new RetryPolicy(random.nextInt(10), duration(), 1 + random.nextDouble() * 3, duration()),
        optionalDuration(), optionalDuration(), gpu(), random.nextBoolean());
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
        .maxProcess(random.nextInt(100))
        .maxWaiting(random.nextInt(100))
        .interval(duration().plusNanos(1))
        .defaultMemoryBytes(size())
        .cores(random.nextInt(64))
        .cpuUtilizationLimit(fraction())
        .memoryUtilizationLimit(fraction())
        .remainMemoryBytes(size())
        .loadNretry(1 + random.nextInt(5))
        .trainNretry(1 + random.nextInt(5))
        .defaultCudaMemoryBytes(size())
        .cudaMemoryUtilizationLimit(fraction())
        .remainCudaMemoryBytes(size())
        .placement(POLICIES.get(random.nextInt(POLICIES.size())))
        .maxPerDevice(random.nextInt(8))
        .putInterval(duration())
        .availableInterval(duration())
        .seed(random.nextLong())
        .oomGrowth(1 + random.nextDouble() * 99)
        .smtp(new SmtpConfig(random.nextBoolean(), any(), random.nextInt(65536), any(), any(), any(),
            List.of(any(), any()), random.nextBoolean(), random.nextBoolean(), duration(), random.nextInt(50),
            List.of("group", "run", "both").get(random.nextInt(3))))
        .executor(random.nextBoolean() ? ExecutorKind.LOCAL : ExecutorKind.SLURM)
        .slurm(new SlurmConfig(random.nextBoolean() ? "jobs" : "allocation", "p" + random.nextInt(9),
            random.nextBoolean() ? "" : "acct", "", duration(), List.of("--constraint=c" + random.nextInt(9)),
            random.nextBoolean() ? "" : "/shared/" + random.nextInt(9), "none", random.nextBoolean(), random.nextInt(5000),
            random.nextBoolean() ? "" : "gpu:" + (1 + random.nextInt(8)), random.nextInt(64), size(),
            1 + random.nextInt(9), List.of("ask", "cancel", "leave").get(random.nextInt(3)),
            duration().plusNanos(1)))
        .build();
  }

  private Reporting reporting() {
    return new Reporting(random.nextBoolean() ? Optional.of(any()) : Optional.empty(), random.nextBoolean(),
        random.nextBoolean() ? Optional.of("https://example.org/hook?t=" + name(0)) : Optional.empty(),
        random.nextBoolean() ? List.of("run-end", "task-failed") : List.of());
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
