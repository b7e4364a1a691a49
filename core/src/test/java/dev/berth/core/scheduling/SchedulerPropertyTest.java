package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.MIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Simulates whole runs under random workloads: decide, launch what was started, end random
 * running tasks in random order, take a new (or reuse a stale) host reading, decide again. The
 * invariants are checked against figures computed here, not read back from the budgets.
 */
class SchedulerPropertyTest {

  /** One task's shape. */
  record Shape(long memoryBytes, long milliCpus, int priority) {}

  /**
   * A random run: groups of task shapes, the configuration and the host; {@code seed} is the test
   * case's (for messages), {@code simulationSeed} drives the simulated host and task endings.
   */
  record Workload(
      long seed, List<List<Shape>> groups, SchedulerConfig config, int logicalCpus, long totalMemory,
      long simulationSeed) {

    RunSpec spec() {
      List<GroupSpec> result = new ArrayList<>();
      int n = 0;
      for (int g = 0; g < groups.size(); g++) {
        String name = "g" + g;
        List<TaskSpec> tasks = new ArrayList<>();
        for (Shape s : groups.get(g)) {
          tasks.add(TaskSpec.builder("t" + n++, name)
              .command("work")
              .memoryBytes(s.memoryBytes())
              .cpus(s.milliCpus() / 1000.0)
              .priority(s.priority())
              .build());
        }
        result.add(new GroupSpec(name, tasks));
      }
      return new RunSpec("prop", "runs/prop", config, result);
    }

    long coreCapacity() {
      return (config.cores() > 0 ? config.cores() : logicalCpus) * 1000L;
    }

    /** The memory that must stay free: max(total * (1 - limit) rounded up, remain). */
    long floor() {
      long byLimit = BigDecimal.valueOf(totalMemory)
          .multiply(BigDecimal.ONE.subtract(BigDecimal.valueOf(config.memoryUtilizationLimit())))
          .setScale(0, RoundingMode.CEILING)
          .longValueExact();
      return Math.max(byLimit, config.remainMemoryBytes());
    }

    boolean possible(TaskSpec t) {
      return t.resources().milliCpus() <= coreCapacity()
          && t.resources().memoryBytes() <= totalMemory - floor();
    }

    /**
     * The same workload on a host big enough for it: the remain limit at most half the host, and
     * every task shrunk to what the idle host can hold.
     */
    Workload thatFits() {
      SchedulerConfig roomy = config.toBuilder()
          .set(SchedulerKeys.REMAIN_MEMORY, Math.min(config.remainMemoryBytes(), totalMemory / 2))
          .build();
      return new Workload(seed, groups, roomy, logicalCpus, totalMemory, simulationSeed).shrunk();
    }

    private Workload shrunk() {
      long maxMemory = totalMemory - floor();
      List<List<Shape>> fitted = groups.stream()
          .map(g -> g.stream()
              .map(s -> new Shape(Math.min(s.memoryBytes(), maxMemory), Math.min(s.milliCpus(), coreCapacity()),
                  s.priority()))
              .toList())
          .toList();
      return new Workload(seed, fitted, config, logicalCpus, totalMemory, simulationSeed);
    }
  }

  private static final long[] MILLI_CPUS = {0L, 250L, 500L, 1000L, 1500L, 2000L, 3000L, 8000L};
  private static final double[] MEMORY_LIMITS = {0.5, 0.7, 0.8, 0.9, 0.95, 1.0};
  private static final double[] CPU_LIMITS = {0.5, 0.8, 1.0};

  static LongStream seeds() {
    return LongStream.range(0, 200);
  }

  /** Seeds for the third property, so that its Chaos.ALL runs are not those of the first. */
  static LongStream otherSeeds() {
    return LongStream.range(200, 400);
  }

  /** An int in [min, max]; one time in eight an edge: min, min + 1, max - 1 or max. */
  private static int between(Random rnd, int min, int max) {
    if (rnd.nextInt(8) == 0) {
      int[] edges = {min, min + 1, max - 1, max};
      return Math.max(min, Math.min(max, edges[rnd.nextInt(edges.length)]));
    }
    return rnd.nextInt(min, max + 1);
  }

  /**
   * The workload of one seed: 1 to 4 groups of 0 to 7 tasks each asking 0 to 12 GiB in 256 MiB
   * steps, one of a few CPU amounts and a priority in [-1, 3]; a configuration drawn from the
   * scheduler's knobs; a host of 1 to 8 CPUs and 2 to 32 GiB.
   */
  static Workload workload(long seed) {
    Random rnd = new Random(seed);
    List<List<Shape>> groups = new ArrayList<>();
    for (int g = between(rnd, 1, 4); g > 0; g--) {
      List<Shape> shapes = new ArrayList<>();
      for (int t = between(rnd, 0, 7); t > 0; t--) {
        shapes.add(new Shape(
            between(rnd, 0, 48) * 256 * MIB, MILLI_CPUS[rnd.nextInt(MILLI_CPUS.length)], between(rnd, -1, 3)));
      }
      groups.add(shapes);
    }
    SchedulerConfig config = SchedulerConfig.builder()
        .set(SchedulerKeys.MAX_PROCESS, between(rnd, 0, 5))
        .set(SchedulerKeys.CORES, between(rnd, 0, 6))
        .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, MEMORY_LIMITS[rnd.nextInt(MEMORY_LIMITS.length)])
        .set(SchedulerKeys.REMAIN_MEMORY, between(rnd, 0, 8) * 512 * MIB)
        .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, CPU_LIMITS[rnd.nextInt(CPU_LIMITS.length)])
        .build();
    return new Workload(seed, groups, config, between(rnd, 1, 8), between(rnd, 2, 32) * GIB, rnd.nextLong());
  }

  /** Knobs for the simulated host and tasks. */
  record Chaos(boolean exitsMayFail, boolean foreignLoad, boolean staleReadings, boolean retries) {
    static final Chaos ALL = new Chaos(true, true, true, true);
    static final Chaos CALM = new Chaos(false, false, true, false);
  }

  /** What a run looked like when it stopped. */
  record Simulated(RunState state, int passes) {}

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void admissionsNeverOvercommitMemoryCoresOrProcessesAndGroupsRunInOrder(long seed) {
    simulate(workload(seed), Chaos.ALL, 300);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyTaskEndsWhenEveryExitIsZeroAndTheHostIsBigEnough(long seed) {
    Workload w = workload(seed).thatFits();
    int tasks = w.groups().stream().mapToInt(List::size).sum();
    int budget = 50 + tasks * 40;

    Simulated end = simulate(w, Chaos.CALM, budget);

    assertThat(end.state().isFinished())
        .as("seed %d: %d tasks must finish within %d passes; config %s", seed, tasks, budget, w.config())
        .isTrue();
    for (TaskRecord r : end.state().tasks()) {
      assertThat(r.state()).as("seed %d: %s fits an idle host and exits 0", seed, r.spec().id())
          .isEqualTo(TaskState.SUCCEEDED);
      assertThat(r.history().attemptCount()).as("seed %d: attempts of %s", seed, r.spec().id()).isEqualTo(1);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("otherSeeds")
  void impossibleTasksAndOnlyThoseAreFailed(long seed) {
    Workload w = workload(seed);
    Simulated end = simulate(w, Chaos.ALL, 300);
    for (TaskRecord r : end.state().tasks()) {
      boolean possible = w.possible(r.spec());
      boolean failedAsImpossible = r.history().events().stream()
          .anyMatch(e -> e instanceof TaskEvent.Settled s && s.reason().startsWith("can never be placed"));
      if (!possible && r.history().releasedAt().isPresent()) {
        assertThat(failedAsImpossible)
            .as("seed %d: %s asks %s on a host that cannot hold it", seed, r.spec().id(), r.spec().resources())
            .isTrue();
        assertThat(r.history().attemptCount()).as("seed %d: attempts of impossible %s", seed, r.spec().id()).isZero();
      }
      if (possible) {
        assertThat(failedAsImpossible).as("seed %d: %s fits an idle host", seed, r.spec().id()).isFalse();
      }
    }
  }

  /**
   * Runs the simulation, checking every invariant on every pass; returns the final state.
   */
  private Simulated simulate(Workload w, Chaos chaos, int maxPasses) {
    Random random = new Random(w.simulationSeed());
    RunState state = new RunState(w.spec());
    Scheduler scheduler = new Scheduler(w.config());
    SortedMap<TaskId, Long> rss = new TreeMap<>();
    HostSnapshot reading = null;
    Instant now = T0;
    int pass = 0;
    for (; pass < maxPasses && !state.isFinished(); pass++) {
      now = now.plusSeconds(1);
      if (reading == null || !chaos.staleReadings() || random.nextInt(4) != 0) {
        reading = probe(w, state, rss, now, chaos, random);
      }

      String before = fingerprint(state);
      Decisions d = scheduler.decide(state, reading, now);
      assertThat(fingerprint(state)).as("seed %d: decide() must not change the state", w.seed()).isEqualTo(before);
      if (random.nextInt(8) == 0) {
        assertThat(scheduler.decide(state, reading, now)).as("seed %d: same inputs, same decisions", w.seed())
            .isEqualTo(d);
      }

      checkGroupsRunInOrder(w, state, d);
      checkMemory(w, state, reading, d);
      checkAccounting(w, state, d);

      SchedulingFixtures.carryOut(state, d, now.plusMillis(100));
      for (Decision.Start s : d.starts()) {
        rss.put(s.task(), 0L);
      }

      checkCoresAndProcesses(w, state);
      endSomeTasks(state, rss, now.plusMillis(500), chaos, random);
      for (TaskId running : state.running().keySet()) {
        long reserved = state.running().get(running).placement().memoryBytes();
        rss.put(running, (long) (reserved * random.nextDouble() * 1.2));
      }
    }
    return new Simulated(state, pass);
  }

  private static HostSnapshot probe(
      Workload w, RunState state, Map<TaskId, Long> rss, Instant now, Chaos chaos, Random random) {
    long foreign = chaos.foreignLoad() ? (long) (random.nextDouble() * w.totalMemory() / 3) : 0;
    long used = foreign;
    SortedMap<TaskId, Long> measured = new TreeMap<>();
    for (TaskId t : state.running().keySet()) {
      long r = rss.getOrDefault(t, 0L);
      used += r;
      if (random.nextInt(5) != 0) {
        measured.put(t, r);
      }
    }
    double utilization = chaos.foreignLoad() ? (random.nextInt(4) == 0 ? -1 : random.nextDouble()) : -1;
    return new HostSnapshot(now, w.logicalCpus(), utilization, w.totalMemory(),
        Math.max(0, w.totalMemory() - used), measured);
  }

  private static void endSomeTasks(RunState state, Map<TaskId, Long> rss, Instant at, Chaos chaos, Random random) {
    List<TaskId> running = new ArrayList<>(state.running().keySet());
    Collections.shuffle(running, random);
    for (TaskId t : running) {
      if (random.nextBoolean()) {
        continue;
      }
      TaskEvent.Ended ending;
      int roll = random.nextInt(10);
      int attempts = state.task(t).history().attemptCount();
      if (chaos.retries() && roll == 0 && attempts < 3) {
        ending = new TaskEvent.Ended(at, Outcome.HOST_OOM, 137, "out of memory", TaskState.READY);
      } else if (chaos.exitsMayFail() && roll <= 2) {
        ending = Endings.exited(at, roll == 1 ? 1 : 137);
      } else {
        ending = Endings.exited(at, 0);
      }
      state.apply(t, ending);
      rss.remove(t);
    }
  }

  /** Nothing is released or started in a group while an earlier group has unfinished tasks. */
  private static void checkGroupsRunInOrder(Workload w, RunState state, Decisions d) {
    for (Decision action : d.actions()) {
      int group = state.task(action.task()).groupIndex();
      for (TaskRecord r : state.tasks()) {
        if (r.groupIndex() < group) {
          assertThat(r.state().isTerminal())
              .as("seed %d: %s of group %d while %s of group %d is %s", w.seed(), action, group, r.spec().id(),
                  r.groupIndex(), r.state())
              .isTrue();
        }
      }
    }
  }

  /**
   * Memory Berth has promised but the reading cannot see (unmeasured reservations, and the part of
   * a measured reservation above the measurement), plus what this pass admits, fits in available
   * memory minus the floor.
   */
  private static void checkMemory(Workload w, RunState state, HostSnapshot reading, Decisions d) {
    if (d.starts().isEmpty()) {
      return;
    }
    long unseen = 0;
    for (Map.Entry<TaskId, TaskEvent.Launched> e : state.running().entrySet()) {
      long reserved = e.getValue().placement().memoryBytes();
      boolean measured = !e.getValue().at().isAfter(reading.takenAt())
          && reading.taskMemoryBytes().containsKey(e.getKey());
      unseen += measured ? Math.max(0, reserved - reading.taskMemoryBytes().get(e.getKey())) : reserved;
    }
    long admitted = d.starts().stream().mapToLong(s -> s.placement().memoryBytes()).sum();
    assertThat(unseen + admitted)
        .as("seed %d: unseen reservations %d + admitted %d vs available %d - floor %d", w.seed(), unseen, admitted,
            reading.availableMemoryBytes(), w.floor())
        .isLessThanOrEqualTo(reading.availableMemoryBytes() - w.floor());
    for (Decision.Start s : d.starts()) {
      TaskSpec spec = state.task(s.task()).spec();
      long hostOoms = state.task(s.task()).history().attempts().stream()
          .filter(a -> a.end().map(end -> end.outcome() == Outcome.HOST_OOM).orElse(false)).count();
      java.math.BigDecimal grown = java.math.BigDecimal.valueOf(spec.resources().memoryBytes())
          .multiply(java.math.BigDecimal.valueOf(1.5).pow((int) hostOoms))
          .setScale(0, java.math.RoundingMode.CEILING);
      long cap = Math.max(spec.resources().memoryBytes(), reading.totalMemoryBytes() - w.floor());
      long expected = hostOoms == 0 || spec.resources().memoryBytes() == 0
          ? spec.resources().memoryBytes() : Math.min(grown.min(java.math.BigDecimal.valueOf(Long.MAX_VALUE)).longValue(), cap);
      assertThat(s.placement().memoryBytes())
          .as("seed %d: memory placed for %s after %d host OOMs (x1.5 each, capped at %d)", w.seed(), s.task(), hostOoms, cap)
          .isEqualTo(expected);
      assertThat(s.placement().milliCpus()).as("seed %d: millicores placed for %s", w.seed(), s.task())
          .isEqualTo(spec.resources().milliCpus());
      assertThat(s.attempt()).as("seed %d: attempt number of %s", w.seed(), s.task())
          .isEqualTo(state.task(s.task()).history().attemptCount() + 1);
    }
  }

  private static void checkCoresAndProcesses(Workload w, RunState state) {
    long cores = state.running().values().stream().mapToLong(l -> l.placement().milliCpus()).sum();
    assertThat(cores).as("seed %d: millicores in use vs capacity", w.seed()).isLessThanOrEqualTo(w.coreCapacity());
    if (w.config().maxProcess() > 0) {
      assertThat(state.running()).as("seed %d: processes vs scheduler.max-process", w.seed())
          .hasSizeLessThanOrEqualTo(w.config().maxProcess());
    }
  }

  /** Every ready or newly released task is started, failed, waiting for resources or counted as blocked: once. */
  private static void checkAccounting(Workload w, RunState state, Decisions all) {
    Decisions d = new Decisions(all.actions(), all.waiting().stream().filter(Waiting::forResources).toList(),
        all.blockedBy(), all.blockedCount());
    long released = d.actions().stream().filter(Decision.Release.class::isInstance).count();
    long decided = d.actions().stream().filter(a -> !(a instanceof Decision.Release)).count();
    assertThat(decided + d.waiting().size() + d.blockedCount())
        .as("seed %d: starts and fails %d + waiting %d + blocked %d vs ready %d + released %d", w.seed(),
            decided, d.waiting().size(), d.blockedCount(), state.ready().size(), released)
        .isEqualTo(state.ready().size() + released);
    assertThat(d.blockedCount() > 0).as("seed %d: blocked count %d vs blocked-by %s", w.seed(), d.blockedCount(),
        d.blockedBy()).isEqualTo(d.blockedBy().isPresent());
    List<TaskId> touched = new ArrayList<>();
    d.actions().stream().filter(a -> !(a instanceof Decision.Release)).forEach(a -> touched.add(a.task()));
    d.waiting().forEach(wt -> touched.add(wt.task()));
    assertThat(touched).as("seed %d: no task is decided twice in a pass", w.seed()).doesNotHaveDuplicates();
  }

  private static String fingerprint(RunState state) {
    StringBuilder sb = new StringBuilder();
    for (TaskRecord r : state.tasks()) {
      sb.append(r.state()).append(r.history().events().size()).append(',');
    }
    return sb.append(state.ready().size()).append('/').append(state.running().keySet()).toString();
  }
}
