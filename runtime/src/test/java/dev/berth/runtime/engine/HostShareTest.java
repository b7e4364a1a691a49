package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.SimulatedDevices;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.GpuReading;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Refusal;
import dev.berth.core.resources.Resource;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Waiting;
import dev.berth.host.HostLedgers;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations;
import dev.berth.testkit.FakeClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class HostShareTest {

  private static final long GIB = 1L << 30;

  private final FakeClock clock = new FakeClock();
  private final Supplier<SharedReservations> host = HostLedgers.sharedInMemory();
  private final SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_CUDA_MEMORY, 0L)
      .set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 1.0).build();
  private final HostSnapshot snapshot = new HostSnapshot(clock.instant(), 8, -1, 64 * GIB, 64 * GIB, new TreeMap<>())
      .withGpus(GpuReading.of(List.of(SimulatedDevices.device(0, 24 * GIB))));

  private RunState state(int tasks) {
    List<TaskSpec> specs = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      specs.add(TaskSpec.builder("t" + i, "g").command("x").cpus(0).gpuMemoryBytes(10 * GIB).build());
    }
    RunState state = new RunState(new RunSpec("mine", "/runs/mine", config, List.of(new GroupSpec("g", specs)), false,
        "sim:24GiB", Reporting.NONE));
    state.started(clock.instant());
    return state;
  }

  private HostShare joined(RunState state) {
    SharedReservations ledger = host.get();
    ledger.join(HostLedgers.self("mine", "/runs/mine"), clock.instant());
    HostShare share = new HostShare(state, clock);
    share.use(ledger);
    return share;
  }

  private List<Reservation> seenByAnother() {
    SharedReservations other = host.get();
    other.join(HostLedgers.self("other", "/runs/other"), clock.instant());
    return other.look(SharedReservations.Progress.starting(0), List.of(), clock.instant());
  }

  private static void launch(RunState state, String task) {
    state.apply(TaskId.of(task), new TaskEvent.Released(state.startedAt().orElseThrow()));
    state.apply(TaskId.of(task), new TaskEvent.Launched(state.startedAt().orElseThrow(), 1,
        new Placement("cuda:0", 0, 0, 10 * GIB), 4242, false));
  }

  @Test
  void theAttemptsAResumedRunAdoptedAreTakenSoOtherRunsSeeThem() {
    RunState state = state(2);
    launch(state, "t0");
    HostShare share = joined(state);

    share.adoptRunning(snapshot);

    assertThat(seenByAnother()).extracting(Reservation::task, Reservation::label, Reservation::bytes)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("t0", "cuda:0", 10 * GIB));
  }

  @Test
  void anAdoptedAttemptIsHeldThoughAnotherRunFilledItsDeviceAndGoesBackWhenItEnds() {
    SharedReservations filler = host.get();
    filler.join(HostLedgers.self("filler", "/runs/filler"), clock.instant());
    assertThat(filler.take(new SharedReservations.Claim("f0", 0, 0, 8000, List.of(new SharedReservations.Share(
        "sim:24GiB#0", "cuda:0", 20 * GIB, 24 * GIB))), clock.instant())).isEmpty();
    RunState state = state(1);
    launch(state, "t0");
    HostShare share = joined(state);

    share.adoptRunning(snapshot);

    assertThat(seenByAnother()).extracting(Reservation::task).containsExactly("f0", "t0");
    state.apply(TaskId.of("t0"), new TaskEvent.Ended(clock.instant(), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
    share.releaseEnded();
    share.releaseNoted();
    assertThat(seenByAnother()).extracting(Reservation::task).containsExactly("f0");
  }

  @Test
  void anAttemptThatEndedIsReleasedAtTheEndOfTheNextPass() {
    RunState state = state(1);
    HostShare share = joined(state);
    launch(state, "t0");
    assertThat(share.take(state.task(TaskId.of("t0")), new Placement("cuda:0", 0, 0, 10 * GIB), snapshot)).isEmpty();

    state.apply(TaskId.of("t0"), new TaskEvent.Ended(clock.instant(), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
    share.releaseEnded();
    assertThat(seenByAnother()).as("noted, for the pass's first take").isNotEmpty();
    share.releaseNoted();

    assertThat(seenByAnother()).isEmpty();
  }

  @Test
  void thePassesStartsAreTakenInOrderInOneStepEachSeeingThoseBefore() {
    RunState state = state(3);
    HostShare share = joined(state);
    List<HostShare.Start> starts = new ArrayList<>();
    for (String task : List.of("t0", "t1", "t2")) {
      launch(state, task);
      starts.add(new HostShare.Start(state.task(TaskId.of(task)), new Placement("cuda:0", 0, 0, 10 * GIB)));
    }

    List<Optional<Refusal>> refused = share.takeAll(starts, snapshot);

    assertThat(refused).extracting(Optional::isPresent).containsExactly(false, false, true);
    assertThat(seenByAnother()).extracting(SharedReservations.Reservation::task).containsExactly("t0", "t1");
  }

  @Test
  void anAttemptThatEndedIsReleasedByTheNextPassesFirstTake() {
    RunState state = state(2);
    HostShare share = joined(state);
    launch(state, "t0");
    assertThat(share.take(state.task(TaskId.of("t0")), new Placement("cuda:0", 0, 0, 10 * GIB), snapshot)).isEmpty();

    state.apply(TaskId.of("t0"), new TaskEvent.Ended(clock.instant(), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
    share.releaseEnded();
    launch(state, "t1");
    assertThat(share.take(state.task(TaskId.of("t1")), new Placement("cuda:0", 0, 0, 10 * GIB), snapshot)).isEmpty();

    assertThat(seenByAnother()).extracting(SharedReservations.Reservation::task).containsExactly("t1");
  }

  @Test
  void onlyTheFirstSixteenWaitingTasksKeepAPlaceInTheHostWideOrder() {
    List<TaskSpec> specs = new ArrayList<>();
    for (int i = 0; i < 17; i++) { // sixteen that could never fit beside anything, then one that could
      specs.add(TaskSpec.builder("t" + i, "g").command("x").cpus(0).gpuMemoryBytes((i < 16 ? 30 : 10) * GIB).build());
    }
    RunState state = new RunState(new RunSpec("mine", "/runs/mine", config, List.of(new GroupSpec("g", specs)), false,
        "sim:24GiB", Reporting.NONE));
    HostShare share = joined(state);
    SharedReservations other = host.get();
    other.join(HostLedgers.self("other", "/runs/other"), clock.instant());
    clock.advance(java.time.Duration.ofSeconds(1));

    share.waiting(waitingFor(0, 17), snapshot);
    assertThat(other.take(claim("o1"), clock.instant())).as("t16 is not in the host-wide queue").isEmpty();
    other.release("o1", clock.instant());

    share.waiting(waitingFor(1, 17), snapshot);
    clock.advance(java.time.Duration.ofSeconds(1));
    assertThat(other.take(claim("o2"), clock.instant())).as("now it is, and o2 would push it out")
        .hasValueSatisfying(why -> assertThat(why).contains("task t16 of run mine"));
  }

  private static List<Waiting> waitingFor(int from, int to) {
    List<Waiting> waiting = new ArrayList<>();
    for (int i = from; i < to; i++) {
      waiting.add(new Waiting(TaskId.of("t" + i),
          List.of(new Refusal(Resource.GPU_MEMORY, "cuda:0", 10 * GIB, 0, 0, "free device memory"))));
    }
    return waiting;
  }

  private static SharedReservations.Claim claim(String task) {
    return new SharedReservations.Claim(task, 0, 0, 8000, List.of(
        new SharedReservations.Share("sim:24GiB#0", "cuda:0", 20 * GIB, 24 * GIB)));
  }
}
