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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Simulates whole runs under random workloads: decide, launch what was started, end random
 * running tasks in random order, take a new (or reuse a stale) host reading, decide again. The
 * invariants are checked against figures computed here, not read back from the ledger.
 */
class SchedulerPropertyTest {

  /** One task's shape. */
  record Shape(long memoryBytes, long milliCpus, int priority) {}

  /** A random run: groups of task shapes, the configuration and the host. */
  record Workload(List<List<Shape>> groups, SchedulerConfig config, int logicalCpus, long totalMemory, long seed) {

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
          .remainMemoryBytes(Math.min(config.remainMemoryBytes(), totalMemory / 2))
          .build();
      return new Workload(groups, roomy, logicalCpus, totalMemory, seed).shrunk();
    }

    private Workload shrunk() {
      long maxMemory = totalMemory - floor();
      List<List<Shape>> fitted = groups.stream()
          .map(g -> g.stream()
              .map(s -> new Shape(Math.min(s.memoryBytes(), maxMemory), Math.min(s.milliCpus(), coreCapacity()),
                  s.priority()))
              .toList())
          .toList();
      return new Workload(fitted, config, logicalCpus, totalMemory, seed);
    }
  }

  @Provide
  Arbitrary<Workload> workloads() {
    Arbitrary<Shape> shape = Combinators.combine(
            Arbitraries.longs().between(0, 48).map(n -> n * 256 * MIB),
            Arbitraries.of(0L, 250L, 500L, 1000L, 1500L, 2000L, 3000L, 8000L),
            Arbitraries.integers().between(-1, 3))
        .as(Shape::new);
    Arbitrary<List<List<Shape>>> groups = shape.list().ofMinSize(0).ofMaxSize(7).list().ofMinSize(1).ofMaxSize(4);
    Arbitrary<SchedulerConfig> config = Combinators.combine(
            Arbitraries.integers().between(0, 5),
            Arbitraries.integers().between(0, 6),
            Arbitraries.of(0.5, 0.7, 0.8, 0.9, 0.95, 1.0),
            Arbitraries.longs().between(0, 8).map(n -> n * 512 * MIB),
            Arbitraries.of(0.5, 0.8, 1.0))
        .as((maxProcess, cores, memoryLimit, remain, cpuLimit) -> SchedulerConfig.builder()
            .maxProcess(maxProcess)
            .cores(cores)
            .memoryUtilizationLimit(memoryLimit)
            .remainMemoryBytes(remain)
            .cpuUtilizationLimit(cpuLimit)
            .build());
    return Combinators.combine(
            groups,
            config,
            Arbitraries.integers().between(1, 8),
            Arbitraries.longs().between(2, 32).map(n -> n * GIB),
            Arbitraries.longs())
        .as(Workload::new);
  }

  /** Knobs for the simulated host and tasks. */
  record Chaos(boolean exitsMayFail, boolean foreignLoad, boolean staleReadings, boolean retries) {
    static final Chaos ALL = new Chaos(true, true, true, true);
    static final Chaos CALM = new Chaos(false, false, true, false);
  }

  /** What a run looked like when it stopped. */
  record Simulated(RunState state, int passes) {}

  @Property(tries = 200)
  void admissionsNeverOvercommitMemoryCoresOrProcessesAndGroupsRunInOrder(@ForAll("workloads") Workload w) {
    simulate(w, Chaos.ALL, 300);
  }

  @Property(tries = 200)
  void everyTaskEndsWhenEveryExitIsZeroAndTheHostIsBigEnough(@ForAll("workloads") Workload workload) {
    Workload w = workload.thatFits();
    int tasks = w.groups().stream().mapToInt(List::size).sum();
    int budget = 50 + tasks * 40;

    Simulated end = simulate(w, Chaos.CALM, budget);

    assertThat(end.state().isFinished())
        .as("%d tasks must finish within %d passes; config %s", tasks, budget, w.config())
        .isTrue();
    for (TaskRecord r : end.state().tasks()) {
      assertThat(r.state()).as("%s fits an idle host and exits 0", r.spec().id()).isEqualTo(TaskState.EXITED);
      assertThat(r.history().attemptCount()).as("attempts of %s", r.spec().id()).isEqualTo(1);
    }
  }

  @Property(tries = 200)
  void impossibleTasksAndOnlyThoseAreFailed(@ForAll("workloads") Workload w) {
    Simulated end = simulate(w, Chaos.ALL, 300);
    for (TaskRecord r : end.state().tasks()) {
      boolean possible = w.possible(r.spec());
      boolean failedAsImpossible = r.history().events().stream()
          .anyMatch(e -> e instanceof TaskEvent.Settled s && s.reason().startsWith("can never be placed"));
      if (!possible && r.history().releasedAt().isPresent()) {
        assertThat(failedAsImpossible).as("%s asks %s on a host that cannot hold it", r.spec().id(), r.spec().resources())
            .isTrue();
        assertThat(r.history().attemptCount()).isZero();
      }
      if (possible) {
        assertThat(failedAsImpossible).as("%s fits an idle host", r.spec().id()).isFalse();
      }
    }
  }

  /**
   * Runs the simulation, checking every invariant on every pass; returns the final state.
   */
  private Simulated simulate(Workload w, Chaos chaos, int maxPasses) {
    Random random = new Random(w.seed());
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
      assertThat(fingerprint(state)).as("decide() must not change the state").isEqualTo(before);
      if (random.nextInt(8) == 0) {
        assertThat(scheduler.decide(state, reading, now)).as("same inputs, same decisions").isEqualTo(d);
      }

      checkGroupsRunInOrder(state, d);
      checkMemory(w, state, reading, d);
      checkAccounting(state, d);

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
        ending = new TaskEvent.Ended(at, Outcome.HOST_OOM, 137, "out of memory", TaskState.INIT);
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
  private static void checkGroupsRunInOrder(RunState state, Decisions d) {
    for (Decision action : d.actions()) {
      int group = state.task(action.task()).groupIndex();
      for (TaskRecord r : state.tasks()) {
        if (r.groupIndex() < group) {
          assertThat(r.state().isTerminal())
              .as("%s of group %d while %s of group %d is %s", action, group, r.spec().id(), r.groupIndex(), r.state())
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
        .as("unseen reservations %d + admitted %d vs available %d - floor %d", unseen, admitted,
            reading.availableMemoryBytes(), w.floor())
        .isLessThanOrEqualTo(reading.availableMemoryBytes() - w.floor());
    for (Decision.Start s : d.starts()) {
      TaskSpec spec = state.task(s.task()).spec();
      assertThat(s.placement().memoryBytes()).isEqualTo(spec.resources().memoryBytes());
      assertThat(s.placement().milliCpus()).isEqualTo(spec.resources().milliCpus());
      assertThat(s.attempt()).isEqualTo(state.task(s.task()).history().attemptCount() + 1);
    }
  }

  private static void checkCoresAndProcesses(Workload w, RunState state) {
    long cores = state.running().values().stream().mapToLong(l -> l.placement().milliCpus()).sum();
    assertThat(cores).as("millicores in use vs capacity").isLessThanOrEqualTo(w.coreCapacity());
    if (w.config().maxProcess() > 0) {
      assertThat(state.running()).as("processes vs scheduler.max-process").hasSizeLessThanOrEqualTo(w.config().maxProcess());
    }
  }

  /** Every ready or newly released task is started, failed, waiting or counted as blocked: once. */
  private static void checkAccounting(RunState state, Decisions d) {
    long released = d.actions().stream().filter(Decision.Release.class::isInstance).count();
    long decided = d.actions().stream().filter(a -> !(a instanceof Decision.Release)).count();
    assertThat(decided + d.waiting().size() + d.blockedCount())
        .as("starts and fails %d + waiting %d + blocked %d vs ready %d + released %d",
            decided, d.waiting().size(), d.blockedCount(), state.ready().size(), released)
        .isEqualTo(state.ready().size() + released);
    assertThat(d.blockedCount() > 0).isEqualTo(d.blockedBy().isPresent());
    List<TaskId> touched = new ArrayList<>();
    d.actions().stream().filter(a -> !(a instanceof Decision.Release)).forEach(a -> touched.add(a.task()));
    d.waiting().forEach(wt -> touched.add(wt.task()));
    assertThat(touched).as("no task is decided twice in a pass").doesNotHaveDuplicates();
  }

  private static String fingerprint(RunState state) {
    StringBuilder sb = new StringBuilder();
    for (TaskRecord r : state.tasks()) {
      sb.append(r.state()).append(r.history().events().size()).append(',');
    }
    return sb.append(state.ready().size()).append('/').append(state.running().keySet()).toString();
  }
}
