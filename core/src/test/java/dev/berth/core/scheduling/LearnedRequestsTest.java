package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.MIB;
import static dev.berth.core.scheduling.SchedulingFixtures.at;
import static dev.berth.core.scheduling.SchedulingFixtures.carryOut;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.lifecycle.Learned;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.GpuReading;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A task's request is learned from the measured peaks of its template's finished tasks, folded from
 * their events: p95 by nearest rank times 1.2, per parameter value where the values differ, never
 * above the declared estimate unless an out-of-memory in the template raised it.
 */
class LearnedRequestsTest {

  private static final long DECLARED = 4 * GIB;

  /** Tasks of one template {@code t-{bs}-{seed}}, each declaring 4 GiB, in the order given. */
  private static RunState run(UnaryOperator<SchedulerConfig.Builder> config, int running, String... bsSeed) {
    List<TaskSpec> specs = new ArrayList<>();
    for (String s : bsSeed) {
      String[] p = s.split("-");
      specs.add(TaskSpec.builder("t-" + s, "g").command("x").cpus(0).memoryBytes(DECLARED)
          .params(Map.of("bs", p[0], "seed", p[1])).template("t-{bs}-{seed}").build());
    }
    SchedulerConfig c = config.apply(SchedulingFixtures.unlimited().set(SchedulerKeys.MAX_PROCESS, running)).build();
    RunState state = new RunState(new RunSpec("r", "w", c, List.of(new GroupSpec("g", specs))));
    state.started(at(0));
    return state;
  }

  private static HostSnapshot host(Instant now) {
    return new HostSnapshot(now, 64, -1, 512 * GIB, 512 * GIB, new TreeMap<>())
        .withGpus(GpuReading.of(List.of(new GpuDevice(0, "G0", "Test", 80 * GIB, 0, 80 * GIB, -1, true, List.of()))));
  }

  private static Decisions pass(RunState state, double seconds) {
    Decisions d = new Scheduler(state.spec().config()).decide(state, host(at(seconds)), at(seconds));
    carryOut(state, d, at(seconds));
    return d;
  }

  private static void succeed(RunState state, String task, long peak, double seconds) {
    MeasuredUsage usage = new MeasuredUsage(OptionalLong.of(peak), OptionalDouble.of(1), OptionalLong.empty(), true);
    state.apply(id(task), new TaskEvent.Ended(at(seconds), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED, usage));
  }

  private static Decision.Start start(Decisions d, String task) {
    return d.starts().stream().filter(s -> s.task().equals(id(task))).findFirst().orElseThrow();
  }

  @Test
  void afterThreeFinishTheRequestIsTheNinetyFifthPercentileOfTheirPeaksTimesOnePointTwo() {
    RunState state = run(b -> b, 3, "1-1", "1-2", "1-3", "1-4");
    pass(state, 0);
    succeed(state, "t-1-1", 100 * MIB, 1);
    succeed(state, "t-1-2", 200 * MIB, 1);

    Decisions twoKnown = pass(state, 1);
    assertThat(start(twoKnown, "t-1-4").placement().memoryBytes()).as("two peaks are too few").isEqualTo(DECLARED);

    succeed(state, "t-1-3", 150 * MIB, 2);
    state.apply(id("t-1-4"), new TaskEvent.Ended(at(2), Outcome.CANCELLED, null, "x", TaskState.CANCELLED));
    assertThat(new Requests(state.spec().config(), new Attempts(state.spec().config()))
        .memory(state.task(id("t-1-4")), state, Long.MAX_VALUE).bytes()).isEqualTo(240 * MIB);
  }

  @Test
  void theQuantileIsTakenByNearestRank() {
    List<Long> peaks = new ArrayList<>();
    for (long i = 1; i <= 40; i++) {
      peaks.add(i * MIB);
    }
    assertThat(LearningRule.quantile(peaks)).as("rank ceil(0.95 * 40) = 38").isEqualTo(38 * MIB);
    assertThat(LearningRule.quantile(List.of(5L, 1L, 3L))).as("fewer than 20: the largest").isEqualTo(5);
    assertThat(LearningRule.withMargin(200 * MIB)).isEqualTo(240 * MIB);
    assertThat(LearningRule.withMargin(100 * MIB + 1)).as("rounded up to a MiB").isEqualTo(121 * MIB);
  }

  @Test
  void theStartSaysWhatWasLearnedAndFromHowManyTasks() {
    RunState state = run(b -> b, 3, "1-1", "1-2", "1-3", "1-4");
    pass(state, 0);
    succeed(state, "t-1-1", 200 * MIB, 1);
    succeed(state, "t-1-2", 200 * MIB, 1);
    succeed(state, "t-1-3", 200 * MIB, 1);

    Decision.Start s = start(pass(state, 1), "t-1-4");

    assertThat(s.learned()).containsExactly(new Learned(Learned.MEMORY, 240 * MIB, DECLARED, 3, ""));
    assertThat(s.learned().get(0).describe()).isEqualTo("memory 240 MiB learned from 3 tasks (declared 4 GiB)");
    assertThat(state.task(id("t-1-4")).history().currentLaunch().orElseThrow().learned()).isEqualTo(s.learned());
  }

  @Test
  void tasksLearnPerParameterValueWhenTheValuesPeaksDiffer() {
    RunState state = run(b -> b, 6, "32-1", "32-2", "32-3", "256-1", "256-2", "256-3", "32-4", "256-4");
    pass(state, 0);
    for (String seed : List.of("1", "2", "3")) {
      succeed(state, "t-32-" + seed, 100 * MIB, 1);
      succeed(state, "t-256-" + seed, 800 * MIB, 1);
    }

    Decisions d = pass(state, 1);

    assertThat(start(d, "t-32-4").placement().memoryBytes()).isEqualTo(120 * MIB);
    assertThat(start(d, "t-256-4").placement().memoryBytes()).isEqualTo(960 * MIB);
    assertThat(start(d, "t-256-4").learned().get(0).describe())
        .isEqualTo("memory 960 MiB learned from 3 tasks with bs=256 (declared 4 GiB)");
  }

  @Test
  void aValueNoFinishedTaskHadOfAKeyWithOneValueSeenKeepsTheDeclaredEstimate() {
    RunState state = run(b -> b, 3, "32-1", "32-2", "32-3", "256-1", "32-4");
    pass(state, 0);
    for (String seed : List.of("1", "2", "3")) {
      succeed(state, "t-32-" + seed, 100 * MIB, 1);
    }

    Decisions d = pass(state, 1);

    assertThat(start(d, "t-256-1").placement().memoryBytes()).as("nothing is known of bs=256").isEqualTo(DECLARED);
    assertThat(start(d, "t-256-1").learned()).isEmpty();
    assertThat(start(d, "t-32-4").placement().memoryBytes()).as("seeds 1 to 3 agree: seed does not matter")
        .isEqualTo(120 * MIB);
  }

  @Test
  void aKeyMattersByTasksThatDifferInItAloneSoASweepRunBatchSizeByBatchSizeStillLearns() {
    RunState state = run(b -> b, 4, "32-1", "32-2", "32-3", "64-1", "32-4", "64-2");
    pass(state, 0);
    for (String seed : List.of("1", "2", "3")) {
      succeed(state, "t-32-" + seed, 50 * MIB, 1);
    }
    succeed(state, "t-64-1", 100 * MIB, 1); // seed=1 now peaks at 100 MiB, seeds 2 and 3 at 50: bs, not seed

    Decisions d = pass(state, 1);

    assertThat(start(d, "t-32-4").placement().memoryBytes()).isEqualTo(60 * MIB);
    assertThat(start(d, "t-32-4").learned().get(0).basis()).isEqualTo("bs=32");
    assertThat(start(d, "t-64-2").placement().memoryBytes()).as("one bs=64 peak is too few").isEqualTo(DECLARED);
  }

  @Test
  void peaksAboveTheDeclaredEstimateNeverRaiseIt() {
    RunState state = run(b -> b, 3, "1-1", "1-2", "1-3", "1-4");
    pass(state, 0);
    for (String t : List.of("t-1-1", "t-1-2", "t-1-3")) {
      succeed(state, t, 5 * GIB, 1);
    }

    Decision.Start s = start(pass(state, 1), "t-1-4");

    assertThat(s.placement().memoryBytes()).isEqualTo(DECLARED);
    assertThat(s.learned()).isEmpty();
  }

  @Test
  void oneOutOfMemoryRaisesTheWholeTemplateAtOnce() {
    RunState state = run(b -> b, 4, "1-1", "1-2", "1-3", "1-4", "1-5");
    pass(state, 0);
    for (String t : List.of("t-1-1", "t-1-2", "t-1-3")) {
      succeed(state, t, 100 * MIB, 1);
    }
    state.apply(id("t-1-4"), new TaskEvent.Ended(at(1), Outcome.HOST_OOM, 137, "oom", TaskState.READY));
    long retryOfTheTaskThatRanOut = new Attempts(state.spec().config()).memory(state.task(id("t-1-4")), Long.MAX_VALUE);

    Decisions d = pass(state, 1);

    assertThat(retryOfTheTaskThatRanOut).isGreaterThan(DECLARED);
    assertThat(start(d, "t-1-5").placement().memoryBytes()).isEqualTo(retryOfTheTaskThatRanOut);
    assertThat(start(d, "t-1-5").learned().get(0).describe()).startsWith("memory 6 GiB raised by an out-of-memory of t-1-4");
    assertThat(start(d, "t-1-4").placement().memoryBytes()).isEqualTo(retryOfTheTaskThatRanOut);
  }

  @Test
  void withLearningOffEveryTaskReservesWhatItDeclared() {
    RunState state = run(b -> b.set(SchedulerKeys.LEARN_MEMORY, false), 3, "1-1", "1-2", "1-3", "1-4");
    pass(state, 0);
    for (String t : List.of("t-1-1", "t-1-2", "t-1-3")) {
      succeed(state, t, 100 * MIB, 1);
    }

    Decision.Start s = start(pass(state, 1), "t-1-4");

    assertThat(s.placement().memoryBytes()).isEqualTo(DECLARED);
    assertThat(s.learned()).isEmpty();
  }

  @Test
  void aRunRebuiltFromItsEventsLearnsExactlyWhatTheFirstDid() {
    RunState first = run(b -> b, 7, "32-1", "32-2", "32-3", "256-1", "256-2", "256-3", "1024-1", "32-4", "256-4",
        "1024-2");
    pass(first, 0);
    for (String seed : List.of("1", "2", "3")) {
      succeed(first, "t-32-" + seed, 100 * MIB + Integer.parseInt(seed), 1);
      succeed(first, "t-256-" + seed, 700 * MIB * Integer.parseInt(seed), 1);
    }
    first.apply(id("t-1024-1"), new TaskEvent.Ended(at(1), Outcome.HOST_OOM, 137, "oom", TaskState.READY));

    RunState resumed = run(b -> b, 7, "32-1", "32-2", "32-3", "256-1", "256-2", "256-3", "1024-1", "32-4", "256-4",
        "1024-2");
    resumed.started(at(0));
    for (TaskRecord r : first.tasks()) {
      r.history().events().forEach(e -> resumed.apply(r.spec().id(), e));
    }

    assertThat(new Scheduler(resumed.spec().config()).decide(resumed, host(at(1)), at(1)))
        .isEqualTo(new Scheduler(first.spec().config()).decide(first, host(at(1)), at(1)));
    assertThat(start(pass(resumed, 1), "t-256-4").learned()).isNotEmpty();
  }

  @Test
  void gpuMemoryIsLearnedUnderAnyPlacementPolicyAndCanBeSwitchedOff() {
    for (boolean on : List.of(true, false)) {
      List<TaskSpec> specs = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        specs.add(TaskSpec.builder("g" + i, "g").command("x").cpus(0).memoryBytes(GIB).gpuMemoryBytes(8 * GIB)
            .template("g{i}").build());
      }
      SchedulerConfig c = SchedulingFixtures.unlimited().set(SchedulerKeys.MAX_PROCESS, 3)
          .set(SchedulerKeys.LEARN_GPU_MEMORY, on).set(SchedulerKeys.REMAIN_CUDA_MEMORY, 0L)
          .set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 1.0).build();
      RunState state = new RunState(new RunSpec("r", "w", c, List.of(new GroupSpec("g", specs))));
      state.started(at(0));
      pass(state, 0);
      for (int i = 0; i < 3; i++) {
        MeasuredUsage usage = new MeasuredUsage(OptionalLong.empty(), OptionalDouble.empty(), OptionalLong.of(GIB), true);
        state.apply(id("g" + i), new TaskEvent.Ended(at(1), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED, usage));
      }

      Decision.Start s = start(pass(state, 1), "g3");

      assertThat(s.placement().gpuMemoryBytes()).as("learn-gpu-memory " + on).isEqualTo(on ? 1229 * MIB : 8 * GIB);
      assertThat(s.learned()).hasSize(on ? 1 : 0);
      assertThat(s.learned()).allSatisfy(l -> assertThat(l.describe()).startsWith("GPU memory 1.2 GiB learned from 3"));
    }
  }
}
