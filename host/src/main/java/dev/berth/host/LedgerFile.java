package dev.berth.host;

import dev.berth.host.LedgerStore.Tables;
import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservationsException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The host ledger's file as one run has it open, and what follows when it is removed under the run:
 * every call goes to the file at the ledger's path now, which the run reopens (made anew when there
 * is none) and carries there what the removed one had; and rows made anew hold starts back until
 * they can tell again what every run on the host holds. {@link SharedLedger} keeps the ledger's
 * rules; this keeps its file.
 */
final class LedgerFile {

  /**
   * How long a ledger made anew in place of a removed one refuses claims unless a run carries there
   * every run its old file had first: many times the runs' look interval (1 s by default), in which
   * every live run that had the old file open looks, and carries.
   */
  static final Duration REMADE_GRACE = Duration.ofSeconds(10);

  private volatile LedgerStore store; // another when the ledger's file was removed under this run
  private boolean settled; // the store's rows were not made anew, or every run is back in them: claims need not ask
  private final String host;
  private final TaskProcesses tasks;

  LedgerFile(LedgerStore store, String host, TaskProcesses tasks) {
    this.store = store;
    this.host = host;
    this.tasks = tasks;
  }

  /** Where the ledger is, for people. */
  String where() {
    return store.where();
  }

  /** Closes the file this run has open; its rows stay. */
  void close() {
    store.close();
  }

  /**
   * Why claims of attempts yet to start wait in rows made anew in place of a removed ledger, until
   * a run that had the removed file open carried its runs there. First for {@link #REMADE_GRACE}
   * after the first run saw them: the live runs that held in the removed file publish their holds in
   * the new one at their next call, and until then a claim would see what they hold as free. Then
   * while task processes live of runs the new rows do not know: their Berth died while no live run
   * had the file open to carry them, and what they hold is not known; they are known again once they
   * end or their run is resumed. Empty for rows made where no ledger was before, and once it is all
   * over, after which no run asks again.
   */
  Optional<String> startsHeld(Tables t, Instant now) {
    if (settled) {
      return Optional.empty();
    }
    Optional<Instant> made = t.remade(now);
    if (made.isEmpty()) {
      settled = true;
      return Optional.empty();
    }
    Instant until = made.get().plus(REMADE_GRACE);
    if (now.isBefore(until)) {
      long seconds = (Duration.between(now, until).toMillis() + 999) / 1000;
      return Optional.of("the host ledger was made anew after its file was removed: starts wait " + seconds
          + " s more for the runs on this host to publish there what they hold [host ledger made anew]");
    }
    Set<String> unknown = new TreeSet<>(tasks.runFolders(store.where()));
    t.runs().forEach(r -> unknown.remove(r.workdir()));
    if (!unknown.isEmpty()) {
      return Optional.of("the host ledger was made anew after its file was removed, and tasks of runs it does not"
          + " know run on, holding what it cannot tell (" + String.join(", ", unknown.stream().limit(3).toList())
          + (unknown.size() > 3 ? ", ..." : "") + "): starts wait until they end or their runs are resumed"
          + " [host ledger made anew]");
    }
    t.remadeOver();
    settled = true;
    return Optional.empty();
  }

  /** A ledger made anew counts its grace from the first run that sees it, whether it claims or not. */
  void stamp(Tables t, Instant now) {
    if (!settled) {
      t.remade(now);
    }
  }

  /**
   * The store on the host's ledger now: every call goes there, a claim or a release as much as a
   * look.
   *
   * @param run this run, once it joined: a file opened in place of a removed one gets its rows
   */
  LedgerStore current(Run run, Instant now) {
    reopenIfReplaced(run, now);
    return store;
  }

  /**
   * When the ledger's file was removed (or replaced) while this ledger kept the old one open, opens
   * the one at its place now, made anew when there is none, and publishes there this run's row, holds
   * and waits as the old file has them: another run that made a new ledger must not see free what
   * this run holds, nor miss it in {@code berth ps}.
   *
   * <p>It also carries there every other live run the old file has, of every user, with its holds
   * and waits, when the new file has no row of it: a run whose Berth was killed while its tasks live
   * ({@link SharedLedger#TASKS_LIVE}) has no Berth left to publish its holds, and a live run publishes its own
   * only at its next look, while claims in the new file would see them free. A run changes only its
   * own rows otherwise; carrying is the exception because it only adds a run the new file lacks
   * whole, as the old file had it: a row a run published in the new file (itself, or carried by a
   * run that looked first) is newer than the old file's and is never replaced, and each run's own
   * rows are its own to publish again. A carried run that is dead is reclaimed there as anywhere.
   */
  private void reopenIfReplaced(Run run, Instant now) {
    LedgerStore old = store;
    if (!old.replaced()) {
      return;
    }
    LedgerStore fresh = old.reopened();
    Live live;
    try {
      live = old.transaction(t -> Live.of(t, now));
    } catch (SharedReservationsException e) {
      live = Live.NONE; // the old file cannot be read: this run is published as it joined, holding nothing yet
    }
    Live carried = live;
    try {
      fresh.transaction(t -> {
        if (run != null) {
          Run me = run;
          RunRow row = carried.runs().stream().filter(r -> r.id().equals(me.id())).findFirst().orElse(
              new RunRow(me.id(), host, me.name(), me.workdir(), me.uid(), me.user(), me.pid(), me.pidStart(),
                  "running", 0, 0, 0, 0, now, now, null));
          t.putRun(row, me.uid());
          carried.holdsOf(me.id()).forEach(h -> t.addHold(h, me.uid()));
          t.replaceWaits(me.id(), carried.waitsOf(me.id()), me.uid());
        }
        for (RunRow other : carried.runs()) {
          if (run == null || !other.id().equals(run.id())) {
            t.carry(other, carried.holdsOf(other.id()), carried.waitsOf(other.id()));
          }
        }
        if (carried.read()) {
          if (carried.waitingSince().isEmpty()) {
            t.remadeOver(); // every run on the host is here again: nothing left to wait for
          } else {
            t.remadeSince(carried.waitingSince().get());
          }
        }
        return null;
      });
    } catch (RuntimeException e) {
      fresh.close(); // the next call tries again
      throw e;
    }
    store = fresh;
    settled = false;
    old.close();
  }

  /**
   * The live runs of one ledger file, with their holds and waits, when it could be read; and since
   * when it waited for runs when it was itself made anew and still waiting, or empty when it had
   * every run on the host.
   */
  private record Live(boolean read, List<RunRow> runs, List<HoldRow> holds, List<WaitRow> waits,
      Optional<Instant> waitingSince) {
    static final Live NONE = new Live(false, List.of(), List.of(), List.of(), Optional.empty());

    static Live of(Tables t, Instant now) {
      return new Live(true, t.liveRuns(), t.holds(), t.waits(), t.remade(now));
    }

    List<HoldRow> holdsOf(String run) {
      return holds.stream().filter(h -> h.run().equals(run)).toList();
    }

    List<WaitRow> waitsOf(String run) {
      return waits.stream().filter(w -> w.run().equals(run)).toList();
    }
  }
}
