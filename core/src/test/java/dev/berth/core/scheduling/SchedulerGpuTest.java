package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.carryOut;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.GpuReading;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Resource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SchedulerGpuTest {

  private static final SchedulerConfig LOOSE =
      unlimited().set(SchedulerKeys.REMAIN_CUDA_MEMORY, 0L).set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 1.0)
          .set(SchedulerKeys.PLACEMENT, PlacementPolicyName.FIRST_FIT).build();

  private static GpuDevice gpu(int index, long totalGiB, long freeGiB) {
    return new GpuDevice(index, "GPU-" + index, "Test GPU", totalGiB * GIB, (totalGiB - freeGiB) * GIB, freeGiB * GIB,
        -1, true, List.of());
  }

  private static HostSnapshot host(Instant at, GpuDevice... gpus) {
    return new HostSnapshot(at, 64, -1, 512 * GIB, 512 * GIB, new TreeMap<>()).withGpus(GpuReading.of(List.of(gpus)));
  }

  private static TaskSpec.Builder task(String id) {
    return TaskSpec.builder(id, "g").command("train").cpus(0);
  }

  private static RunState state(SchedulerConfig config, TaskSpec... tasks) {
    return new RunState(new RunSpec("r", "w", config, List.of(new GroupSpec("g", List.of(tasks)))));
  }

  private static Map<String, String> devicesOf(Decisions d) {
    Map<String, String> where = new TreeMap<>();
    d.starts().forEach(s -> where.put(s.task().value(), s.placement().device()));
    return where;
  }

  @Test
  void twoSharesInOnePassNeverSeeTheSameFreeMemoryTwice() {
    RunState state = state(LOOSE, task("a").gpuMemoryBytes(16 * GIB).build(), task("b").gpuMemoryBytes(16 * GIB).build(),
        task("c").gpuMemoryBytes(16 * GIB).build());

    Decisions d = new Scheduler(LOOSE).decide(state, host(T0, gpu(0, 24, 24), gpu(1, 24, 24)), T0);

    assertThat(devicesOf(d)).as("16+16 GiB would overcommit a 24 GiB device").containsExactly(
        Map.entry("a", "cuda:0"), Map.entry("b", "cuda:1"));
    assertThat(d.waiting()).singleElement().satisfies(w -> {
      assertThat(w.task()).isEqualTo(id("c"));
      assertThat(w.refusals()).allSatisfy(r -> assertThat(r.resource()).isEqualTo(Resource.GPU_MEMORY));
      assertThat(w.refusals()).extracting(r -> r.device()).containsExactly("cuda:0", "cuda:1");
      assertThat(w.refusals().get(0).free()).as("24 - 16 GiB left on cuda:0").isEqualTo(8 * GIB);
      assertThat(w.refusals().get(0).reserved()).isEqualTo(16 * GIB);
    });
  }

  /** The default placement, with nothing held back by the limits. */
  private static final SchedulerConfig DEFAULT_PLACEMENT =
      unlimited().set(SchedulerKeys.REMAIN_CUDA_MEMORY, 0L).set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 1.0)
          .build();

  @Test
  void byDefaultTrainingsSpreadOverTheDevicesInsteadOfStackingOnTheFirst() {
    RunState state = state(DEFAULT_PLACEMENT, task("a").gpuMemoryBytes(6 * GIB).build(),
        task("b").gpuMemoryBytes(6 * GIB).build(), task("c").gpuMemoryBytes(6 * GIB).build(),
        task("d").gpuMemoryBytes(6 * GIB).build());

    Decisions d = new Scheduler(DEFAULT_PLACEMENT).decide(state, host(T0, gpu(0, 24, 24), gpu(1, 24, 24)), T0);

    assertThat(devicesOf(d)).containsExactly(Map.entry("a", "cuda:0"), Map.entry("b", "cuda:1"),
        Map.entry("c", "cuda:0"), Map.entry("d", "cuda:1"));
  }

  @Test
  void byDefaultSpreadingKeepsADeviceWithRoomForTheLargestWaitingTask() {
    RunState state = state(DEFAULT_PLACEMENT, task("a").gpuMemoryBytes(4 * GIB).build(),
        task("b").gpuMemoryBytes(4 * GIB).build(), task("c").gpuMemoryBytes(4 * GIB).build(),
        task("big").gpuMemoryBytes(21 * GIB).build());

    Decisions d = new Scheduler(DEFAULT_PLACEMENT).decide(state, host(T0, gpu(0, 24, 24), gpu(1, 24, 24)), T0);

    assertThat(devicesOf(d)).as("4 GiB on each device would leave 21 GiB nowhere").containsExactly(
        Map.entry("a", "cuda:0"), Map.entry("b", "cuda:0"), Map.entry("big", "cuda:1"), Map.entry("c", "cuda:0"));
  }

  @Test
  void fedflowsCudaLimitsKeepHeadroomOnEachDevice() {
    SchedulerConfig config = LOOSE.toBuilder().set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 0.8)
        .set(SchedulerKeys.REMAIN_CUDA_MEMORY, 2 * GIB).build();
    RunState state = state(config, task("fits").gpuMemoryBytes(19 * GIB).build(), task("over").gpuMemoryBytes(20 * GIB).build());

    Decisions d = new Scheduler(config).decide(state, host(T0, gpu(0, 24, 24)), T0);

    assertThat(devicesOf(d)).containsOnlyKeys("fits");
    assertThat(d.actions()).anySatisfy(a -> assertThat(a).isEqualTo(new Decision.Fail(id("over"),
        "can never be placed: gpu-memory on cuda:0: asked 20 GiB, free 19.2 GiB [utilization-limit.cuda-memory]")));
  }

  @Test
  void aPinnedTaskOnlyEverRunsOnItsDevice() {
    RunState state = state(LOOSE, task("p").device("cuda:1").gpuMemoryBytes(GIB).build());

    Decisions d = new Scheduler(LOOSE).decide(state, host(T0, gpu(0, 24, 24), gpu(1, 24, 24)), T0);

    assertThat(devicesOf(d)).containsExactly(Map.entry("p", "cuda:1"));
  }

  @Test
  void aTaskPinnedToADeviceThatDoesNotExistFailsAtOnce() {
    RunState state = state(LOOSE, task("p").device("cuda:5").build());

    Decisions d = new Scheduler(LOOSE).decide(state, host(T0, gpu(0, 24, 24)), T0);

    assertThat(d.actions()).last().isEqualTo(new Decision.Fail(id("p"), "needs cuda:5, but the devices are cuda:0"));
  }

  @Test
  void aGpuTaskOnAHostWithoutGpusFailsAtOnceAndCpuTasksStillRun() {
    RunState state = state(LOOSE, task("gpu").gpuMemoryBytes(GIB).build(), task("cpu").build());

    Decisions d = new Scheduler(LOOSE).decide(state, host(T0), T0);

    assertThat(devicesOf(d)).containsExactly(Map.entry("cpu", "cpu"));
    assertThat(d.actions()).anySatisfy(a -> assertThat(a).isInstanceOf(Decision.Fail.class)
        .extracting(Decision::task).isEqualTo(id("gpu")));
  }

  @Test
  void wholeDevicesAreExclusiveAndSharesDoNotJoinThem() {
    RunState state = state(LOOSE, task("pair").gpus(2).build(), task("share").gpuMemoryBytes(GIB).build());

    Decisions d = new Scheduler(LOOSE).decide(state, host(T0, gpu(0, 24, 24), gpu(1, 24, 24), gpu(2, 24, 24)), T0);

    assertThat(devicesOf(d)).containsEntry("pair", "cuda:0,cuda:1").containsEntry("share", "cuda:2");
    assertThat(d.starts().get(0).placement().gpuMemoryBytes()).isEqualTo(48 * GIB);
  }

  @Test
  void tasksWithoutAGpuBackfillWhileGpuTasksWaitForMemory() {
    RunState state = state(LOOSE, task("big").gpuMemoryBytes(30 * GIB).targets(List.of(0)).build(),
        task("cpu").build());

    Decisions d = new Scheduler(LOOSE).decide(state, host(T0, gpu(0, 40, 20)), T0);

    assertThat(devicesOf(d)).containsExactly(Map.entry("cpu", "cpu"));
    assertThat(d.waiting()).extracting(Waiting::task).containsExactly(id("big"));
  }

  @Test
  void maxPerDeviceCapsTheTasksOnOneGpu() {
    SchedulerConfig config = LOOSE.toBuilder().set(SchedulerKeys.MAX_PER_DEVICE, 1).build();
    RunState state = state(config, task("a").gpuMemoryBytes(GIB).build(), task("b").gpuMemoryBytes(GIB).build());

    Decisions d = new Scheduler(config).decide(state, host(T0, gpu(0, 24, 24)), T0);

    assertThat(devicesOf(d)).containsOnlyKeys("a");
    assertThat(d.waiting().get(0).refusals().get(0).rule()).isEqualTo("scheduler.max-per-device");
  }

  @Test
  void aReservationIsReleasedWhenMeasuredUsageTakesOver() {
    RunState state = state(LOOSE, task("a").gpuMemoryBytes(16 * GIB).build(), task("b").gpuMemoryBytes(8 * GIB).build());
    Scheduler scheduler = new Scheduler(LOOSE);
    Decisions first = scheduler.decide(state, host(T0, gpu(0, 24, 20)), T0);
    assertThat(devicesOf(first)).as("4 GiB used by someone else: 20 - 16 leaves 4 for b's 8").containsOnlyKeys("a");
    carryOut(state, first, T0);
    Instant later = T0.plusSeconds(5);
    HostSnapshot unmeasured = host(later, gpu(0, 24, 8));
    HostSnapshot measured = unmeasured.withGpus(
        new GpuReading(unmeasured.gpus().devices(), new TreeMap<>(Map.of(id("a"), 16 * GIB)), new TreeMap<>()));

    assertThat(devicesOf(scheduler.decide(state, unmeasured, later)))
        .as("8 free, but a's 16 GiB promise is not visible yet: nothing for b").isEmpty();
    assertThat(devicesOf(scheduler.decide(state, measured, later)))
        .as("a's usage is measured, so the 8 GiB free are really free").containsExactly(Map.entry("b", "cuda:0"));
  }

  /** Ends the task's running attempt in an ordinary failure, retried while its {@code retries} allow. */
  private static void fail(RunState state, String task) {
    state.apply(id(task), Retries.ending(state.task(id(task)), T0, 1, java.util.Optional.empty()));
  }

  @Test
  void aRetryAvoidsTheDevicesThatFailedItWhileOthersAreLeftThenGoesBackToTheOneThatFailedLongestAgo() {
    TaskSpec spec = task("t").gpuMemoryBytes(GIB).set(TaskKeys.RETRIES, 3).build();
    RunState state = state(LOOSE, spec);
    Scheduler scheduler = new Scheduler(LOOSE);
    HostSnapshot two = host(T0, gpu(0, 24, 24), gpu(1, 24, 24));
    carryOut(state, scheduler.decide(state, two, T0), T0);
    fail(state, "t");

    Decisions second = scheduler.decide(state, two, T0);
    assertThat(devicesOf(second)).containsExactly(Map.entry("t", "cuda:1"));
    carryOut(state, second, T0);
    fail(state, "t");

    Decisions third = scheduler.decide(state, two, T0);
    assertThat(devicesOf(third)).as("both failed it: cuda:0 longest ago").containsExactly(Map.entry("t", "cuda:0"));
    carryOut(state, third, T0);
    fail(state, "t");

    assertThat(devicesOf(scheduler.decide(state, two, T0))).as("now cuda:1 failed it longest ago")
        .containsExactly(Map.entry("t", "cuda:1"));
  }

  @Test
  void aTaskOnAOneGpuMachineGetsEveryRetryItAsksFor() {
    TaskSpec spec = task("t").gpuMemoryBytes(4 * GIB).set(TaskKeys.RETRIES, 3).build();
    RunState state = state(LOOSE, spec);
    Scheduler scheduler = new Scheduler(LOOSE);
    HostSnapshot one = host(T0, gpu(0, 24, 24));

    for (int attempt = 1; attempt <= 4; attempt++) {
      Decisions d = scheduler.decide(state, one, T0);
      assertThat(devicesOf(d)).as("attempt " + attempt).containsExactly(Map.entry("t", "cuda:0"));
      carryOut(state, d, T0);
      fail(state, "t");
    }

    assertThat(state.task(id("t")).state()).as("3 retries used").isEqualTo(TaskState.FAILED);
    assertThat(state.task(id("t")).history().attemptCount()).isEqualTo(4);
  }

  @Test
  void aRetryOfATaskOnWholeDevicesTakesBackTheDevicesThatFailedItLongestAgoOnlyAsFarAsItNeeds() {
    TaskSpec spec = task("t").gpus(2).set(TaskKeys.RETRIES, 2).build();
    RunState state = state(LOOSE, spec);
    Scheduler scheduler = new Scheduler(LOOSE);
    HostSnapshot three = host(T0, gpu(0, 24, 24), gpu(1, 24, 24), gpu(2, 24, 24));
    carryOut(state, scheduler.decide(state, three, T0), T0);
    fail(state, "t");

    Decisions second = scheduler.decide(state, three, T0);
    assertThat(devicesOf(second)).as("cuda:2 is fresh; one of those that failed comes back")
        .containsExactly(Map.entry("t", "cuda:0,cuda:2"));
  }

  @Test
  void anOutOfMemoryOrBusyEndingDoesNotBlacklistTheDevice() {
    TaskSpec spec = task("t").gpuMemoryBytes(GIB).set(TaskKeys.RETRIES, 1).build();
    RunState state = state(LOOSE, spec);
    Scheduler scheduler = new Scheduler(LOOSE);
    HostSnapshot one = host(T0, gpu(0, 24, 24));
    carryOut(state, scheduler.decide(state, one, T0), T0);
    state.apply(id("t"), new TaskEvent.Ended(T0, Outcome.GPU_OOM, 1, "CUDA out of memory", TaskState.READY));

    assertThat(devicesOf(scheduler.decide(state, one, T0))).containsExactly(Map.entry("t", "cuda:0"));
  }

  @Test
  void followRunsOnTheDeviceTheFollowedTaskUsed() {
    TaskSpec first = task("first").gpuMemoryBytes(GIB).build();
    TaskSpec second = task("second").gpuMemoryBytes(GIB)
        .follow(dev.berth.core.model.Dependency.allSucceeded(List.of(id("first")))).build();
    SchedulerConfig mostFree = LOOSE.toBuilder().set(SchedulerKeys.PLACEMENT, PlacementPolicyName.MOST_FREE).build();
    RunState state = state(mostFree, first, second);
    Scheduler scheduler = new Scheduler(mostFree);
    carryOut(state, scheduler.decide(state, host(T0, gpu(0, 24, 10), gpu(1, 24, 20)), T0), T0);
    assertThat(state.task(id("first")).history().attempts().get(0).placement().device()).isEqualTo("cuda:1");
    state.apply(id("first"), Endings.exited(T0, 0));

    Decisions d = scheduler.decide(state, host(T0, gpu(0, 24, 24), gpu(1, 24, 4)), T0);

    assertThat(devicesOf(d)).as("most-free would pick cuda:0, follow keeps cuda:1").containsExactly(Map.entry("second", "cuda:1"));
  }

  private static dev.berth.core.model.Dependency followsAll(String... parents) {
    return dev.berth.core.model.Dependency.allSucceeded(java.util.Arrays.stream(parents).map(SchedulingFixtures::id).toList());
  }

  /** Plays a two-stage task's whole life: loaded on the CPU, trained on {@code cuda:device}, succeeded. */
  private static void trainedOn(RunState state, String task, int device, long gpuMemory) {
    TaskId t = id(task);
    state.apply(t, new TaskEvent.Released(T0));
    state.apply(t, new TaskEvent.Launched(T0, 1, new Placement("cpu", GIB, 1000, 0), 42, true));
    state.apply(t, new TaskEvent.Staged(T0, TaskState.LOADING));
    state.apply(t, new TaskEvent.Staged(T0, TaskState.LOADED));
    state.apply(t, new TaskEvent.Trained(T0, 1, new Placement("cuda:" + device, 0, 0, gpuMemory)));
    state.apply(t, new TaskEvent.Staged(T0, TaskState.TRAINED));
    state.apply(t, Endings.exited(T0, 0));
  }

  @Test
  void aRetryOfATwoStageTaskAvoidsTheDeviceItTrainedOnNotTheCpuItLoadedOn() {
    TaskSpec spec = task("fit").twoStage(true).gpuMemoryBytes(GIB).set(TaskKeys.RETRIES, 1).build();
    RunState state = state(LOOSE, spec);
    TaskId fit = id("fit");
    state.apply(fit, new TaskEvent.Released(T0));
    state.apply(fit, new TaskEvent.Launched(T0, 1, new Placement("cpu", GIB, 1000, 0), 42, true));
    state.apply(fit, new TaskEvent.Staged(T0, TaskState.LOADING));
    state.apply(fit, new TaskEvent.Staged(T0, TaskState.LOADED));
    state.apply(fit, new TaskEvent.Trained(T0, 1, new Placement("cuda:0", 0, 0, GIB)));
    state.apply(fit, new TaskEvent.Ended(T0, Outcome.FAILED, 1, "exited with code 1", TaskState.READY));
    Scheduler scheduler = new Scheduler(LOOSE);
    HostSnapshot two = host(T0, gpu(0, 24, 24), gpu(1, 24, 24));
    Decision.Start again = scheduler.decide(state, two, T0).starts().get(0);
    state.apply(fit, new TaskEvent.Launched(T0, again.attempt(), again.placement(), 43, true));
    state.apply(fit, new TaskEvent.Staged(T0, TaskState.LOADING));
    state.apply(fit, new TaskEvent.Staged(T0, TaskState.LOADED));

    Decisions d = scheduler.decide(state, two, T0);

    assertThat(d.actions()).filteredOn(Decision.Train.class::isInstance).singleElement()
        .satisfies(a -> assertThat(((Decision.Train) a).placement().device()).isEqualTo("cuda:1"));
  }

  @Test
  void aFollowerWithoutGpuMemoryOfItsOwnRunsOnTheFollowedTasksGpuAndReservesWhatThatTaskReserved() {
    TaskSpec parent = task("parent").gpuMemoryBytes(4 * GIB).build();
    TaskSpec child = task("child").follow(followsAll("parent")).build();
    SchedulerConfig mostFree = LOOSE.toBuilder().set(SchedulerKeys.PLACEMENT, PlacementPolicyName.MOST_FREE).build();
    RunState state = state(mostFree, parent, child);
    Scheduler scheduler = new Scheduler(mostFree);
    carryOut(state, scheduler.decide(state, host(T0, gpu(0, 24, 10), gpu(1, 24, 20)), T0), T0);
    state.apply(id("parent"), Endings.exited(T0, 0));

    Decisions d = scheduler.decide(state, host(T0, gpu(0, 24, 24), gpu(1, 24, 20)), T0);

    assertThat(d.starts()).singleElement().satisfies(start -> {
      assertThat(start.task()).isEqualTo(id("child"));
      assertThat(start.placement().device()).isEqualTo("cuda:1");
      assertThat(start.placement().gpuMemoryBytes()).isEqualTo(4 * GIB);
    });
  }

  @Test
  void aFollowerOfAnyOfSeveralTwoStageTasksRunsOnTheGpuTheFirstOfThemTrainedOn() {
    TaskSpec c0 = task("client-0").twoStage(true).gpuMemoryBytes(4 * GIB).build();
    TaskSpec c1 = task("client-1").twoStage(true).gpuMemoryBytes(4 * GIB).build();
    TaskSpec aggregate = task("aggregate").follow(new dev.berth.core.model.Dependency(
        List.of(id("client-0"), id("client-1")), false, true, false)).build();
    RunState state = state(LOOSE, c0, c1, aggregate);
    trainedOn(state, "client-0", 1, 6 * GIB);
    trainedOn(state, "client-1", 0, 4 * GIB);

    Decisions d = new Scheduler(LOOSE).decide(state, host(T0, gpu(0, 24, 24), gpu(1, 24, 24)), T0);

    assertThat(d.starts()).singleElement().satisfies(start -> {
      assertThat(start.placement().device()).as("client-0 trained on cuda:1, though it loaded on the CPU")
          .isEqualTo("cuda:1");
      assertThat(start.placement().gpuMemoryBytes()).as("client-0's train call reserved 6 GiB").isEqualTo(6 * GIB);
    });
  }

  @Test
  void aFollowerOfAllOfTasksThatRanOnDifferentGpusIsUnreachableNamingTheDevices() {
    TaskSpec a = task("a").gpuMemoryBytes(GIB).device("cuda:0").build();
    TaskSpec b = task("b").gpuMemoryBytes(GIB).device("cuda:1").build();
    TaskSpec child = task("child").follow(followsAll("a", "b")).build();
    RunState state = state(LOOSE, a, b, child);
    Scheduler scheduler = new Scheduler(LOOSE);
    HostSnapshot two = host(T0, gpu(0, 24, 24), gpu(1, 24, 24));
    carryOut(state, scheduler.decide(state, two, T0), T0);
    state.apply(id("a"), Endings.exited(T0, 0));
    state.apply(id("b"), Endings.exited(T0, 0));

    Decisions d = scheduler.decide(state, two, T0);

    assertThat(d.actions()).containsExactly(new Decision.Settle(id("child"), TaskState.UNREACHABLE,
        "follows tasks that ran on different devices: a on cuda:0, b on cuda:1"));
  }
}
