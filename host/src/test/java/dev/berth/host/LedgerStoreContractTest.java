package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Share;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What both {@link LedgerStore}s do with the rows the rules ask them to change: the caller's own
 * only, and only the rows named. Each user changes rows through their own store, as each user's
 * process has its own on the host's files.
 */
abstract class LedgerStoreContractTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final long ALICE = 1000;
  private static final long BOB = 1001;
  private static final List<Share> DEVICES = List.of(new Share("sim:24GiB#0", "cuda:0", 0, 24L << 30));

  private LedgerStore alice;
  private LedgerStore bob;
  private LedgerStore store; // what either reads

  /** A store of this user's process on rows that are empty before the first call; the same rows for every user. */
  protected abstract LedgerStore storeOf(long uid, String user);

  @BeforeEach
  void open() {
    alice = storeOf(ALICE, "user" + ALICE);
    bob = storeOf(BOB, "user" + BOB);
    store = alice;
    alice.transaction(t -> t.putRun(run("a", ALICE), ALICE));
    bob.transaction(t -> t.putRun(run("b", BOB), BOB));
  }

  @AfterEach
  void close() {
    alice.close();
    bob.close();
  }

  private LedgerStore of(long uid) {
    return uid == ALICE ? alice : bob;
  }

  private static RunRow run(String id, long uid) {
    return new RunRow(id, "h", id, "/runs/" + id, uid, "user" + uid, 1, 1, "running", 0, 0, 0, 0, T0, T0, null);
  }

  private static HoldRow hold(String run, String task, String key) {
    return new HoldRow(run, task, key, key, 1L << 30, 0, 1000, T0);
  }

  private static WaitRow waitRow(String run, String task) {
    return new WaitRow(run, task, 0, T0, 1000, 0, 1L << 30, 1, DEVICES);
  }

  private void add(HoldRow... holds) {
    for (HoldRow h : holds) {
      long uid = h.run().equals("a") ? ALICE : BOB;
      of(uid).transaction(t -> {
        t.addHold(h, uid);
        return null;
      });
    }
  }

  private List<HoldRow> holds() {
    return store.transaction(LedgerStore.Tables::holds);
  }

  private List<WaitRow> waits() {
    return store.transaction(LedgerStore.Tables::waits);
  }

  private boolean removeHolds(String run, String task, long uid) {
    return of(uid).transaction(t -> t.removeHolds(run, task, uid));
  }

  @Test
  void removingATasksHoldsDropsEveryShareOfItAndSaysThereWereSome() {
    add(hold("a", "t1", SharedReservations.HOST), hold("a", "t1", "sim:24GiB#0"), hold("a", "t2", "sim:24GiB#0"),
        hold("b", "t1", "sim:24GiB#0"));

    assertThat(removeHolds("a", "t1", ALICE)).isTrue();
    assertThat(holds()).extracting(HoldRow::run, HoldRow::task)
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("a", "t2"),
            org.assertj.core.groups.Tuple.tuple("b", "t1"));
  }

  @Test
  void removingHoldsThatAreGoneOrAnotherUsersDropsNothingAndSaysSo() {
    add(hold("a", "t1", "sim:24GiB#0"));

    assertThat(removeHolds("a", "t9", ALICE)).as("no such task").isFalse();
    assertThat(removeHolds("a", "t1", BOB)).as("bob's uid on alice's run").isFalse();
    assertThat(holds()).containsExactly(hold("a", "t1", "sim:24GiB#0"));
  }

  @Test
  void removingATasksWaitLeavesTheRunsOtherWaitsAndOtherRunsWaitsAsTheyWere() {
    alice.transaction(t -> {
      t.replaceWaits("a", List.of(waitRow("a", "t1"), waitRow("a", "t2"), waitRow("a", "t3")), ALICE);
      return null;
    });
    bob.transaction(t -> {
      t.replaceWaits("b", List.of(waitRow("b", "t2")), BOB);
      return null;
    });

    alice.transaction(t -> {
      t.removeWait("a", "t2", ALICE);
      return null;
    });

    assertThat(waits()).containsExactlyInAnyOrder(waitRow("a", "t1"), waitRow("a", "t3"),
        waitRow("b", "t2"));
  }

  @Test
  void anotherUserCannotRemoveARunsWait() {
    alice.transaction(t -> {
      t.replaceWaits("a", List.of(waitRow("a", "t1")), ALICE);
      return null;
    });

    bob.transaction(t -> {
      t.removeWait("a", "t1", BOB);
      return null;
    });

    assertThat(waits()).containsExactly(waitRow("a", "t1"));
  }

  @Test
  void aTakeOverMovesTheDeadRunsHoldsToTheResumingRunAndEndsTheDeadOne() {
    add(hold("a", "t-1", "cuda:0"), hold("a", "t-2", "host"), hold("b", "u-1", "cuda:0"));
    store.transaction(t -> t.putRun(new RunRow("a2", "h", "a", "/runs/a", ALICE, "user1000", 2, 20, "running", 0, 0,
        0, 0, T0, T0, null, 1), ALICE));

    store.transaction(t -> {
      t.takeOver("a", "a2", T0.plusSeconds(1));
      return null;
    });

    assertThat(holds()).extracting(HoldRow::run, HoldRow::task)
        .containsExactlyInAnyOrder(tuple("a2", "t-1"), tuple("a2", "t-2"), tuple("b", "u-1"));
    List<RunRow> runs = store.transaction(LedgerStore.Tables::runs);
    assertThat(runs).filteredOn(r -> r.id().equals("a")).extracting(RunRow::state, RunRow::live)
        .containsExactly(tuple(LedgerStore.Tables.RESUMED, false));
    assertThat(runs).filteredOn(r -> r.id().equals("a2")).extracting(RunRow::tasksSince, RunRow::pidStart)
        .as("the resumed run's tasks may have started before its Berth").containsExactly(tuple(1L, 20L));
  }
}
