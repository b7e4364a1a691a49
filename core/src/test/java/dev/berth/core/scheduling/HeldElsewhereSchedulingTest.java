package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.gpu.SimulatedDevices;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.GpuReading;
import dev.berth.core.resources.HeldElsewhere;
import dev.berth.core.resources.Holding;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Refusal;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class HeldElsewhereSchedulingTest {

  private static final SchedulerConfig LOOSE =
      unlimited().set(SchedulerKeys.REMAIN_CUDA_MEMORY, 0L).set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 1.0)
          .set(SchedulerKeys.PLACEMENT, PlacementPolicyName.FIRST_FIT).build();

  private static RunState state(TaskSpec... tasks) {
    RunState state = new RunState(new RunSpec("r", "w", LOOSE, List.of(new GroupSpec("g", List.of(tasks)))));
    state.started(T0);
    return state;
  }

  private static HostSnapshot host(int cpus, HeldElsewhere elsewhere, GpuDevice... gpus) {
    return new HostSnapshot(T0, cpus, -1, 64 * GIB, 64 * GIB, new TreeMap<>())
        .withGpus(GpuReading.of(List.of(gpus))).withElsewhere(elsewhere);
  }

  private static Decisions decide(RunState state, HostSnapshot host) {
    return new Scheduler(LOOSE).decide(state, host, T0);
  }

  @Test
  void gpuMemoryAnotherRunHoldsIsNotFreeAndTheRefusalNamesThatRunAndItsUser() {
    RunState state = state(TaskSpec.builder("t", "g").command("x").cpus(0).gpuMemoryBytes(10 * GIB).build());
    HeldElsewhere held = new HeldElsewhere(List.of(new Holding("sweep-b", "alice", "cuda:0", 20 * GIB, 0)));

    Decisions d = decide(state, host(8, held, SimulatedDevices.device(0, 24 * GIB)));

    assertThat(d.starts()).isEmpty();
    Refusal r = d.waiting().get(0).refusals().get(0);
    assertThat(r.free()).isEqualTo(4 * GIB);
    assertThat(r.describe()).contains("20 GiB held by run sweep-b of user alice");
  }

  @Test
  void aTaskStartsInWhatTheOtherRunsLeave() {
    RunState state = state(TaskSpec.builder("t", "g").command("x").cpus(0).gpuMemoryBytes(10 * GIB).build());
    HeldElsewhere held = new HeldElsewhere(List.of(new Holding("sweep-b", "alice", "cuda:0", 10 * GIB, 0)));

    Decisions d = decide(state, host(8, held, SimulatedDevices.device(0, 24 * GIB)));

    assertThat(d.starts()).hasSize(1);
  }

  @Test
  void coresAndHostMemoryOtherRunsHoldAreNotFreeEither() {
    RunState state = state(TaskSpec.builder("t", "g").command("x").cpus(2).memoryBytes(GIB).build());
    HeldElsewhere cores = new HeldElsewhere(List.of(new Holding("sweep-b", "bob", "host", 0, 7000)));
    HeldElsewhere memory = new HeldElsewhere(List.of(new Holding("sweep-c", "carol", "host", 64 * GIB, 0)));

    Refusal byCores = decide(state, host(8, cores)).waiting().get(0).refusals().get(0);
    Refusal byMemory = decide(state, host(8, memory)).waiting().get(0).refusals().get(0);

    assertThat(byCores.describe()).contains("held by run sweep-b of user bob");
    assertThat(byMemory.describe()).contains("64 GiB held by run sweep-c of user carol");
  }

  @Test
  void whileTheHostLedgerCannotTellWhatOtherRunsHoldNoTaskIsPlacedAndEachWaitsForThatNotForWhatTheOthersWouldHaveTaken() {
    // A pass that planned the bigger tasks first would have refused the last one for memory "reserved
    // by Berth" that the ledger then refused to give: a reason that stays untrue as long as the ledger waits.
    RunState state = state(
        TaskSpec.builder("big", "g").command("x").cpus(0).gpuMemoryBytes(14 * GIB).build(),
        TaskSpec.builder("mid", "g").command("x").cpus(0).gpuMemoryBytes(13 * GIB).build(),
        TaskSpec.builder("small", "g").command("x").cpus(0).gpuMemoryBytes(12 * GIB).build());
    String why = "the host ledger was made anew after its file was removed [host ledger made anew]";
    HeldElsewhere untold = new HeldElsewhere(List.of(), java.util.Optional.of(why));

    Decisions d = decide(state, host(8, untold, SimulatedDevices.device(0, 24 * GIB), SimulatedDevices.device(1, 24 * GIB)));

    assertThat(d.starts()).isEmpty();
    assertThat(d.waiting()).allSatisfy(w -> assertThat(w.describe()).contains(why));
    assertThat(d.blockedBy()).map(Refusal::describe).contains(why);
    assertThat(d.waiting().size() + d.blockedCount()).isEqualTo(3);
  }

  @Test
  void aLoadedTaskIsNotGivenADeviceWhileTheHostLedgerCannotTellWhatOtherRunsHold() {
    RunState state = state(TaskSpec.builder("fit", "g").command("x").cpus(0).twoStage(true).gpuMemoryBytes(GIB).build());
    dev.berth.core.model.TaskId fit = new dev.berth.core.model.TaskId("fit");
    state.apply(fit, new dev.berth.core.lifecycle.TaskEvent.Released(T0));
    state.apply(fit, new dev.berth.core.lifecycle.TaskEvent.Launched(T0, 1,
        new dev.berth.core.lifecycle.Placement("cpu", GIB, 0, 0), 42, true));
    state.apply(fit, new dev.berth.core.lifecycle.TaskEvent.Staged(T0, dev.berth.core.lifecycle.TaskState.LOADING));
    state.apply(fit, new dev.berth.core.lifecycle.TaskEvent.Staged(T0, dev.berth.core.lifecycle.TaskState.LOADED));
    HeldElsewhere untold = new HeldElsewhere(List.of(), java.util.Optional.of("made anew [host ledger made anew]"));

    Decisions d = decide(state, host(8, untold, SimulatedDevices.device(0, 24 * GIB)));

    assertThat(d.actions()).noneMatch(a -> a instanceof Decision.Train);
    assertThat(d.waiting()).singleElement().satisfies(w -> assertThat(w.describe()).contains("made anew"));
  }

  @Test
  void whatAPassWouldHavePlannedForATaskTheHostLedgerJustRefusedCountsAgainstNoTaskAfterIt() {
    RunState state = state(
        TaskSpec.builder("first", "g").command("x").cpus(0).gpuMemoryBytes(14 * GIB).build(),
        TaskSpec.builder("second", "g").command("x").cpus(0).gpuMemoryBytes(12 * GIB).build());
    HostSnapshot one = host(8, HeldElsewhere.NONE, SimulatedDevices.device(0, 24 * GIB));

    Decisions before = decide(state, one);
    Decisions after = new Scheduler(LOOSE).decide(state, one, T0, java.util.Set.of(new dev.berth.core.model.TaskId("first")));

    assertThat(before.starts()).extracting(s -> s.task().value()).containsExactly("first");
    assertThat(before.waiting()).singleElement().satisfies(w -> assertThat(w.describe()).contains("14 GiB reserved by Berth"));
    assertThat(after.starts()).extracting(s -> s.task().value()).containsExactly("second");
    assertThat(after.waiting()).as("the held-back task's reason is the ledger's, which the runtime has").isEmpty();
  }
}
