package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Refusal;
import dev.berth.core.scheduling.RunState;
import dev.berth.host.HostLedgers;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.testkit.CountingReservations;
import dev.berth.testkit.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A pool's calls take their reservations from slots the pool holds in the host ledger. */
class HostSharePoolsTest {

  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;
  private static final Duration INTERVAL = Duration.ofSeconds(1);

  private final FakeClock clock = new FakeClock();
  private final Supplier<SharedReservations> host = HostLedgers.sharedInMemory();
  private final HostSnapshot snapshot = new HostSnapshot(clock.instant(), 8, -1, 64 * GIB, 64 * GIB, new TreeMap<>());
  private CountingReservations counted;

  /** Calls c0..c(n-1) of pool {@code pool}, then the process task {@code p}. */
  private RunState state(String pool, int calls) {
    List<TaskSpec> specs = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      specs.add(TaskSpec.builder("c" + i, "g").command("x").cpus(0).memoryBytes(16 * MIB)
          .set(TaskKeys.POOL, PoolSpec.named(pool)).build());
    }
    specs.add(TaskSpec.builder("p", "g").command("x").cpus(0).memoryBytes(16 * MIB).build());
    SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.INTERVAL, INTERVAL).build();
    RunState state = new RunState(new RunSpec("mine", "/runs/mine", config, List.of(new GroupSpec("g", specs)), false,
        "", Reporting.NONE));
    state.started(clock.instant());
    return state;
  }

  private HostShare joined(RunState state) {
    counted = new CountingReservations(host.get());
    counted.join(HostLedgers.self("mine", "/runs/mine"), clock.instant());
    HostShare share = new HostShare(state, clock);
    share.use(counted);
    return share;
  }

  private List<Reservation> seenByAnother() {
    SharedReservations other = host.get();
    other.join(HostLedgers.self("other", "/runs/other"), clock.instant());
    return other.look(SharedReservations.Progress.starting(0), List.of(), clock.instant());
  }

  /** Launches {@code task} with {@code mib} of memory and takes its reservation as a pass would. */
  private static Optional<Refusal> start(RunState state, HostShare share, HostSnapshot snapshot, String task,
      long mib) {
    TaskId id = TaskId.of(task);
    Placement placement = Placement.cpu(mib * MIB, 0);
    state.apply(id, new TaskEvent.Released(state.startedAt().orElseThrow()));
    state.apply(id, new TaskEvent.Launched(state.startedAt().orElseThrow(), 1, placement, 4242, false));
    return share.takeAll(List.of(new HostShare.Start(state.task(id), placement)), snapshot).get(0);
  }

  private void end(RunState state, String task) {
    state.apply(TaskId.of(task), new TaskEvent.Ended(clock.instant(), Outcome.SUCCEEDED, 0, null,
        TaskState.SUCCEEDED));
  }

  @Test
  void aCallThatFitsAFreeSlotOfItsPoolTakesNoLedgerStepAndOtherRunsStillSeeThePoolsHold() {
    RunState state = state("two", 2);
    HostShare share = joined(state);
    assertThat(start(state, share, snapshot, "c0", 16)).isEmpty();
    share.releaseNoted();
    int before = counted.steps();

    end(state, "c0");
    share.releaseEnded(); // the next pass: c0's end frees its slot, c1 takes it
    assertThat(start(state, share, snapshot, "c1", 16)).isEmpty();
    share.releaseNoted();

    assertThat(counted.steps()).as("no ledger step for c1, nor for c0's end").isEqualTo(before);
    assertThat(seenByAnother()).extracting(Reservation::task, Reservation::bytes)
        .containsExactly(tuple("pool:two/1", 16 * MIB));
  }

  @Test
  void aSlotStillFreeAtTheEndOfThePassGoesBackSoOtherRunsSeeOnlyTheCallsInFlight() {
    RunState state = state("two", 1);
    HostShare share = joined(state);
    assertThat(start(state, share, snapshot, "c0", 16)).isEmpty();

    end(state, "c0");
    share.releaseEnded();
    assertThat(seenByAnother()).as("free, and held until the pass ends").hasSize(1);
    share.releaseNoted();

    assertThat(seenByAnother()).isEmpty();
  }

  @Test
  void aCallBiggerThanEveryFreeSlotClaimsItsOwnAndTheSmallerSlotGoesBackWithThePass() {
    RunState state = state("two", 2);
    HostShare share = joined(state);
    assertThat(start(state, share, snapshot, "c0", 16)).isEmpty();
    int before = counted.claims();

    end(state, "c0");
    share.releaseEnded();
    assertThat(start(state, share, snapshot, "c1", 32)).isEmpty();
    share.releaseNoted();

    assertThat(counted.claims()).as("c1 claims a slot of its size").isEqualTo(before + 1);
    assertThat(seenByAnother()).extracting(Reservation::task, Reservation::bytes)
        .containsExactly(tuple("pool:two/2", 32 * MIB));
  }

  @Test
  void aSlotHeldForAnIntervalGoesBackWhenItsCallEndsSoTheNextCallClaimsAnewInTheHostWideOrder() {
    RunState state = state("two", 2);
    HostShare share = joined(state);
    assertThat(start(state, share, snapshot, "c0", 16)).isEmpty();
    int before = counted.claims();

    clock.advance(INTERVAL);
    end(state, "c0");
    share.releaseEnded();
    assertThat(start(state, share, snapshot, "c1", 16)).isEmpty();
    share.releaseNoted();

    assertThat(counted.claims()).isEqualTo(before + 1);
    assertThat(seenByAnother()).extracting(Reservation::task).containsExactly("pool:two/2");
  }

  @Test
  void aCallOfAnotherPoolOrAProcessNeverTakesAPoolsSlot() {
    RunState calls = state("two", 1);
    HostShare share = joined(calls);
    assertThat(start(calls, share, snapshot, "c0", 16)).isEmpty();
    end(calls, "c0");
    share.releaseEnded();
    int before = counted.claims();

    assertThat(start(calls, share, snapshot, "p", 16)).isEmpty();
    share.releaseNoted();

    assertThat(counted.claims()).isEqualTo(before + 1);
    assertThat(seenByAnother()).extracting(Reservation::task).containsExactly("p");
  }

  @Test
  void aNewSlotTheLedgerRefusesLeavesTheCallWaitingWithWhy() {
    RunState state = state("two", 1);
    HostShare share = joined(state);
    SharedReservations other = host.get();
    other.join(HostLedgers.self("other", "/runs/other"), clock.instant());
    long total = 64 * GIB;
    assertThat(other.take(new SharedReservations.Claim("big", 0, 0, 8000, List.of(
        new SharedReservations.Share(SharedReservations.HOST, "host", total - 8 * MIB, total))), clock.instant()))
        .isEmpty();

    Optional<Refusal> refused = start(state, share, snapshot, "c0", 16);

    assertThat(refused).hasValueSatisfying(r -> assertThat(r.rule()).contains("other"));
    assertThat(seenByAnother()).extracting(Reservation::task).containsExactly("big");
  }
}
