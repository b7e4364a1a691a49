package dev.berth.host;

import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Where the ledger's rows live: one file per user in the host folder, or memory for one run. The
 * {@link SharedLedger} rules decide; a store only keeps rows, one transaction at a time, and every change
 * to a run's rows names the caller's uid, so it touches the caller's own rows only, except
 * {@link Tables#reclaim}, {@link Tables#reclaimTask} and {@link Tables#orphan}, which the rules call
 * for runs whose process is gone (in the host folder these change only what the caller sees of
 * another user's rows: only their owner writes them).
 */
interface LedgerStore extends AutoCloseable {

  /** Runs {@code work} as one transaction that no other writer interleaves with. */
  <T> T transaction(Function<Tables, T> work);

  /** Where the rows are, for people. */
  String where();

  @Override
  void close();

  /** The rows, inside one transaction. */
  interface Tables {
    /** The state of a dead run that a resumed run took over. */
    String RESUMED = "resumed";

    List<RunRow> runs();

    /** The runs that have not ended: what every claim and look reads, without the day of ended runs kept for people. */
    default List<RunRow> liveRuns() {
      return runs().stream().filter(RunRow::live).toList();
    }

    List<HoldRow> holds();

    List<WaitRow> waits();

    /** Usage (share-seconds) by user since then. */
    Map<String, Double> usageSince(Instant since);

    /** Adds or replaces the caller's run row; false when the id belongs to another uid's run. */
    boolean putRun(RunRow run, long uid);

    /** Updates the caller's run's progress. */
    void progress(String run, long uid, String state, int running, int waiting, int done, int total, Instant at);

    /** Ends the caller's run: drops its holds and waits and stamps it ended. */
    void end(String run, long uid, String state, Instant at);

    /** Ends a run whose process is gone, whoever it belonged to. */
    void reclaim(String run, Instant at);

    /** Drops what a run whose process is gone, whoever it belonged to, holds for this task. */
    void reclaimTask(String run, String task);

    /**
     * Moves what a dead run holds to the caller's run that resumes it, and ends the dead run as
     * {@link #RESUMED}; the rules check that the dead run is the caller's.
     */
    void takeOver(String dead, String run, Instant at);

    /**
     * Marks a run whose process is gone, whoever it belonged to, with this state, keeping its holds
     * (its task processes still use them) and dropping its waits (nothing of it starts any more).
     */
    void orphan(String run, String state, Instant at);

    void addHold(HoldRow hold, long uid);

    /** Drops the caller's task's holds; true when there were any, false too when the run is not the caller's. */
    boolean removeHolds(String run, String task, long uid);

    /** Drops the caller's task's hold on one device (or the host). */
    void removeHold(String run, String task, String key, long uid);

    /** Drops the caller's task's wait, leaving the run's other waits as they are. */
    void removeWait(String run, String task, long uid);

    void measured(String run, String task, String key, long bytes, long uid);

    /** Replaces the caller's run's waits. */
    void replaceWaits(String run, List<WaitRow> waits, long uid);

    /** Adds usage (share-seconds) of the user at that instant, to the row of that instant and user when there is one. */
    void addUsage(String user, Instant at, double amount);

    /** Forgets runs that ended before then and usage older than then. */
    void forgetBefore(Instant before);
  }
}
