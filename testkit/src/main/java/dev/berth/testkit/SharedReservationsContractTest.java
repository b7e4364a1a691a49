package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Demand;
import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.spi.SharedReservations.Share;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SharedReservations} must do, written once for the host's SQLite ledger and the
 * in-memory one: runs see each other's reservations, a device is never handed out past its limit,
 * a run whose process is gone frees what it held at once, a run never changes another user's live
 * entries, and a claim waits behind another run's task that comes first in the host-wide order.
 */
public abstract class SharedReservationsContractTest {

  /** When the tests begin. */
  protected static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long GIB = 1L << 30;
  private static final long LIMIT = 24 * GIB;
  private static final long CPUS = 8000;

  private final List<SharedReservations> opened = new ArrayList<>();

  /** Another run's ledger on the one host this test uses (the same for every call within a test). */
  protected abstract SharedReservations ledger() throws Exception;

  /** A run whose process is alive (this JVM's), of this uid and user. */
  protected abstract Run live(String name, long uid, String user);

  /** A run whose process is gone. */
  protected abstract Run dead(String name, long uid, String user);

  @AfterEach
  void closeLedgers() {
    opened.forEach(SharedReservations::close);
  }

  private SharedReservations joined(Run run) throws Exception {
    SharedReservations l = ledger();
    opened.add(l);
    l.join(run, T0);
    return l;
  }

  private static Claim gpu(String task, long gib) {
    return gpu(task, 0, gib);
  }

  private static Claim gpu(String task, int priority, long gib) {
    return new Claim(task, priority, 1000, CPUS, List.of(new Share("sim:24GiB#0", "cuda:0", gib * GIB, LIMIT)));
  }

  private static Demand waitsFor(String task, int priority, long gib) {
    return new Demand(task, priority, 1000, 0, gib * GIB, 1, List.of(new Share("sim:24GiB#0", "cuda:0", 0, LIMIT)));
  }

  private static Progress progress() {
    return new Progress("running", 1, 0, 0, 3);
  }

  @Test
  void aRunSeesWhatAnotherRunTookAndNotItsOwn() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));

    assertThat(a.take(gpu("t1", 10), T0)).isEmpty();

    List<Reservation> seenByB = b.look(progress(), List.of(), T0);
    assertThat(seenByB).extracting(Reservation::runName, Reservation::user, Reservation::task, Reservation::label,
        Reservation::bytes).containsExactlyInAnyOrder(tuple("a", "alice", "t1", "cuda:0", 10 * GIB),
        tuple("a", "alice", "t1", SharedReservations.HOST, 0L));
    assertThat(a.look(progress(), List.of(), T0)).isEmpty();
  }

  @Test
  void aLedgerWhoseRowsWereNeverLostTellsAllThatOtherRunsHold() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    assertThat(a.take(gpu("t1", 10), T0)).isEmpty();

    b.look(progress(), List.of(), T0);

    assertThat(b.untold()).isEmpty();
  }

  @Test
  void aDeviceIsNeverHandedOutPastItsLimitAndTheRefusalNamesWhoHoldsIt() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    assertThat(a.take(gpu("t1", 10), T0)).isEmpty();
    assertThat(b.take(gpu("u1", 10), T0)).isEmpty();

    Optional<String> refused = a.take(gpu("t2", 10), T0);

    assertThat(refused).hasValueSatisfying(why -> assertThat(why).contains("cuda:0").contains("run b of user bob"));
  }

  @Test
  void aReleasedShareIsFreeForTheNextRun() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    a.take(gpu("t1", 20), T0);
    assertThat(b.take(gpu("u1", 10), T0)).isPresent();

    a.release("t1", T0.plusSeconds(1));

    assertThat(b.take(gpu("u1", 10), T0.plusSeconds(1))).isEmpty();
  }

  @Test
  void releasingAndTakingInOneStepIsReleasingThenTakingEachInTurn() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    assertThat(a.releaseAndTakeAll(List.of(), List.of(gpu("t1", 10), gpu("t2", 10), gpu("t3", 10)), T0))
        .as("the third finds the first two taken").extracting(Optional::isPresent).containsExactly(false, false, true);

    assertThat(a.releaseAndTakeAll(List.of("t1"), List.of(gpu("t3", 10)), T0.plusSeconds(1))).containsExactly(Optional.empty());
    assertThat(b.take(gpu("u1", 10), T0.plusSeconds(1))).as("t2 and t3 hold the device").isPresent();
    assertThat(a.releaseAndTakeAll(List.of("t2"), List.of(gpu("t4", 20)), T0.plusSeconds(2)).get(0))
        .as("refused: t3 still holds").isPresent();
    assertThat(b.take(gpu("u1", 10), T0.plusSeconds(2))).as("the release happened though the take was refused").isEmpty();

    a.releaseAll(List.of("t3"), T0.plusSeconds(3));
    b.release("u1", T0.plusSeconds(3));
    assertThat(b.take(gpu("u2", 20), T0.plusSeconds(3))).isEmpty();
  }

  @Test
  void releasingInTheStepOfAClaimFreesThisRunsTaskAndNotAnotherRunsTaskOfTheSameName() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    a.take(gpu("t1", 20), T0);
    b.take(gpu("t1", 4), T0);

    List<Optional<String>> refusals = a.releaseAndTakeAll(List.of("t1"), List.of(gpu("t2", 20), gpu("t3", 1)),
        T0.plusSeconds(1));

    assertThat(refusals.get(0)).as("a's t1 is released before the claim").isEmpty();
    assertThat(refusals.get(1)).as("b's t1 still holds 4 GiB").hasValueSatisfying(why -> assertThat(why)
        .contains("run b of user bob"));
  }

  @Test
  void aRunWhoseIdWasTakenOverAfterItWasReclaimedReleasesNothingOfTheNewOwnersAndItsClaimsSeeIt() throws Exception {
    Run gone = dead("gone", 1000, "alice");
    SharedReservations old = joined(gone);
    old.take(gpu("t1", 20), T0);
    SharedReservations b = joined(live("b", 1001, "bob"));
    b.look(progress(), List.of(), T0); // reclaims gone
    Run bobs = live("c", 1001, "bob");
    SharedReservations taker = joined(new Run(gone.id(), "c", "/c", 1001, "bob", bobs.pid(), bobs.pidStart()));
    assertThat(taker.take(gpu("t1", 20), T0)).isEmpty();

    Optional<String> refused = old.releaseAndTakeAll(List.of("t1"), List.of(gpu("t2", 10)), T0.plusSeconds(1)).get(0);

    assertThat(refused).as("the new owner's t1 still holds 20 GiB").isPresent();
    assertThat(b.look(progress(), List.of(), T0.plusSeconds(1))).extracting(Reservation::runName, Reservation::task,
        Reservation::bytes).contains(tuple("c", "t1", 20 * GIB));
  }

  @Test
  void whatADeadRunHeldIsReclaimedByWhoeverLooksNext() throws Exception {
    SharedReservations gone = joined(dead("gone", 1000, "alice"));
    gone.take(gpu("t1", 20), T0);
    SharedReservations b = joined(live("b", 1001, "bob"));

    assertThat(b.look(progress(), List.of(), T0)).isEmpty();
    assertThat(b.take(gpu("u1", 20), T0)).isEmpty();
    assertThat(b.runs(true, T0)).filteredOn(r -> r.name().equals("gone"))
        .extracting(r -> r.progress().state()).containsExactly("lost");
  }

  @Test
  void anotherUserCannotTakeOverALiveRunsEntries() throws Exception {
    Run alices = live("a", 1000, "alice");
    SharedReservations a = joined(alices);
    a.take(gpu("t1", 20), T0);
    SharedReservations intruder = ledger();
    opened.add(intruder);

    assertThatThrownBy(() -> intruder.join(new Run(alices.id(), "a", "/x", 1001, "bob", alices.pid(),
        alices.pidStart()), T0)).hasMessageContaining("another user");

    SharedReservations b = joined(live("b", 1001, "bob"));
    assertThat(b.look(progress(), List.of(), T0)).extracting(Reservation::task).containsOnly("t1");
  }

  @Test
  void aClaimWaitsBehindAnotherRunsTaskThatCameFirstAndWouldFit() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    a.take(gpu("t1", 10), T0);
    a.take(gpu("t2", 10), T0);
    b.waiting(List.of(waitsFor("u1", 0, 10)), T0); // bob's task waits since T0
    a.release("t1", T0.plusSeconds(1));

    Optional<String> refused = a.take(gpu("t3", 10), T0.plusSeconds(1));

    assertThat(refused).hasValueSatisfying(why -> assertThat(why).contains("task u1 of run b of user bob"));
    assertThat(b.take(gpu("u1", 10), T0.plusSeconds(1))).isEmpty();
  }

  @Test
  void aTaskThatIsTakenLeavesTheHostWideOrderAndTheRunsOtherWaitingTasksKeepTheirPlace() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    a.waiting(List.of(waitsFor("t1", 0, 10), waitsFor("t2", 0, 10)), T0);
    b.waiting(List.of(waitsFor("u1", 0, 10)), T0.plusSeconds(10));

    assertThat(a.take(gpu("t1", 10), T0.plusSeconds(20))).isEmpty();

    assertThat(b.take(gpu("u1", 10), T0.plusSeconds(20))).as("a's t2 waits since T0, before u1")
        .hasValueSatisfying(why -> assertThat(why).contains("task t2 of run a"));
    assertThat(b.take(gpu("u1", 4), T0.plusSeconds(20))).as("t2 still fits beside 4 GiB").isEmpty();
  }

  @Test
  void aHigherPriorityOrAClaimThatLeavesRoomDoesNotWait() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    b.waiting(List.of(waitsFor("u1", 0, 10)), T0);

    assertThat(a.take(gpu("small", 4), T0.plusSeconds(1))).as("room for u1 is left").isEmpty();
    assertThat(a.take(gpu("urgent", 5, 10), T0.plusSeconds(1))).as("priority comes first").isEmpty();
    assertThat(a.take(gpu("late", 0, 4), T0.plusSeconds(1))).as("u1 would no longer fit").isPresent();
  }

  @Test
  void theTasksBeforeAClaimAreServedTogetherNotEachAsIfAlone() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    b.waiting(List.of(waitsFor("u1", 5, 10), waitsFor("u2", 5, 10)), T0);

    // 24 GiB free: after a 10 GiB claim each of u1 and u2 would still fit alone, but not both
    assertThat(a.take(gpu("t1", 10), T0.plusSeconds(1)))
        .hasValueSatisfying(why -> assertThat(why).contains("task u1 of run b"));
    assertThat(a.take(gpu("t2", 4), T0.plusSeconds(1))).as("4 GiB leaves room for both").isEmpty();
  }

  @Test
  void theUserWithLessRecentUsageComesFirstAtEqualPriority() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    a.take(gpu("t1", 20), T0);
    a.release("t1", T0.plusSeconds(600)); // alice used 20 GiB for ten minutes
    a.waiting(List.of(waitsFor("t2", 0, 20)), T0.plusSeconds(600));
    b.waiting(List.of(waitsFor("u1", 0, 20)), T0.plusSeconds(601)); // bob asked later

    assertThat(a.take(gpu("t2", 20), T0.plusSeconds(602))).hasValueSatisfying(why -> assertThat(why).contains("u1"));
    assertThat(b.take(gpu("u1", 20), T0.plusSeconds(602))).isEmpty();
  }

  @Test
  void psListsLiveRunsWithTheirProgressAndReservationsAndEndedOnesOnRequest() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    a.take(gpu("t1", 10), T0);
    a.look(new Progress("running", 1, 2, 3, 6), List.of(new SharedReservations.Measured("t1", "sim:24GiB#0", GIB)),
        T0);
    b.leave("succeeded", T0.plusSeconds(1));

    List<RunEntry> live = a.runs(false, T0.plusSeconds(2));
    List<RunEntry> all = a.runs(true, T0.plusSeconds(2));

    assertThat(live).extracting(RunEntry::name).containsExactly("a");
    RunEntry entry = live.get(0);
    assertThat(entry.progress()).isEqualTo(new Progress("running", 1, 2, 3, 6));
    assertThat(entry.user()).isEqualTo("alice");
    assertThat(entry.reservations()).extracting(Reservation::label, Reservation::bytes, Reservation::measuredBytes)
        .contains(tuple("cuda:0", 10 * GIB, GIB));
    assertThat(all).extracting(RunEntry::name).containsExactly("a", "b");
    assertThat(all.get(1).endedAt()).isPresent();
    assertThat(all.get(1).progress().state()).isEqualTo("succeeded");
  }

  @Test
  void leavingReleasesEverythingTheRunHeld() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    a.take(gpu("t1", 10), T0);
    a.take(gpu("t2", 10), T0);

    a.leave("cancelled", T0.plusSeconds(1));

    assertThat(b.look(progress(), List.of(), T0.plusSeconds(1))).isEmpty();
  }

  @Test
  void coresAreLimitedAcrossRunsToo() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    assertThat(a.take(new Claim("t1", 0, 6000, CPUS, List.of()), T0)).isEmpty();

    assertThat(b.take(new Claim("u1", 0, 4000, CPUS, List.of()), T0))
        .hasValueSatisfying(why -> assertThat(why).contains("cpus").contains("run a of user alice"));
  }

  @Test
  void aTasksNewClaimReplacesWhatTheTaskHoldsSoItsOwnOldShareNeverStandsInItsWay() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    assertThat(a.take(gpu("t1", 10), T0)).isEmpty();

    assertThat(a.take(gpu("t1", 20), T0.plusSeconds(1))).as("its 10 GiB are replaced, not added to").isEmpty();

    assertThat(b.look(progress(), List.of(), T0.plusSeconds(1))).filteredOn(r -> r.label().equals("cuda:0"))
        .extracting(Reservation::bytes).containsExactly(20 * GIB);
    assertThat(b.take(gpu("u1", 5), T0.plusSeconds(1))).as("20 + 5 GiB do not fit in 24").isPresent();
  }

  @Test
  void aTasksClaimOnAnotherDeviceGivesBackWhatItHeldOnTheOldOneAndKeepsItsHostMemory() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    assertThat(a.take(new Claim("t1", 0, 1000, CPUS, List.of(new Share(SharedReservations.HOST, "host", 2 * GIB,
        64 * GIB), new Share("sim:24GiB#0", "cuda:0", 10 * GIB, LIMIT))), T0)).isEmpty();

    assertThat(a.take(new Claim("t1", 0, 0, CPUS, List.of(new Share("sim:24GiB#1", "cuda:1", 15 * GIB, LIMIT))),
        T0.plusSeconds(1))).isEmpty();

    assertThat(b.look(progress(), List.of(), T0.plusSeconds(1))).extracting(Reservation::label, Reservation::bytes,
        Reservation::milliCpus).containsExactlyInAnyOrder(tuple("host", 2 * GIB, 1000L),
        tuple("cuda:1", 15 * GIB, 0L));
  }

  @Test
  void releasingATasksDevicesKeepsWhatItHoldsOfTheHost() throws Exception {
    SharedReservations a = joined(live("a", 1000, "alice"));
    SharedReservations b = joined(live("b", 1001, "bob"));
    a.take(new Claim("t1", 0, 1000, CPUS, List.of(new Share(SharedReservations.HOST, "host", 2 * GIB, 64 * GIB),
        new Share("sim:24GiB#0", "cuda:0", 20 * GIB, LIMIT))), T0);

    a.releaseDevices(List.of("t1"), T0.plusSeconds(1));

    assertThat(b.look(progress(), List.of(), T0.plusSeconds(1))).extracting(Reservation::label, Reservation::bytes)
        .containsExactly(tuple("host", 2 * GIB));
    assertThat(b.take(gpu("u1", 20), T0.plusSeconds(1))).isEmpty();
  }

  @Test
  void anAdoptedAttemptHoldsWhatItUsesEvenWhereAnotherRunFilledTheDevice() throws Exception {
    SharedReservations other = joined(live("other", 1001, "bob"));
    assertThat(other.take(gpu("u-1", 20), T0)).isEmpty();
    SharedReservations resumed = joined(live("resumed", 1000, "alice"));

    resumed.adopt(List.of(gpu("t-1", 10)), T0);

    assertThat(other.look(progress(), List.of(), T0)).filteredOn(r -> !r.key().equals(SharedReservations.HOST))
        .extracting(Reservation::task).containsExactly("t-1");
    assertThat(other.take(gpu("u-2", 1), T0)).as("30 GiB booked of 24").isPresent();
  }

  @Test
  void anAdoptionGivesBackWhatItsRunHeldForTasksItDidNotAdopt() throws Exception {
    SharedReservations resumed = joined(live("resumed", 1000, "alice"));
    assertThat(resumed.take(gpu("t-1", 10), T0)).isEmpty();
    assertThat(resumed.take(gpu("t-2", 10), T0)).isEmpty();
    SharedReservations other = joined(live("other", 1001, "bob"));

    resumed.adopt(List.of(gpu("t-2", 12)), T0.plusSeconds(1));

    assertThat(other.look(progress(), List.of(), T0.plusSeconds(1)))
        .filteredOn(r -> !r.key().equals(SharedReservations.HOST)).extracting(Reservation::task, Reservation::bytes)
        .containsExactly(tuple("t-2", 12 * GIB));
  }
}
