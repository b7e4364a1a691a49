package dev.berth.host;

import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The ledger's rows in memory, with the rules every store keeps about whose rows a change may touch:
 * a change names the caller's uid and touches that uid's runs only, except reclaiming what a run whose
 * process is gone held. {@link MemoryStore} keeps one for its life; {@link FileStore} reads one from
 * the users' files for each transaction, and writes back the caller's part.
 */
final class RowSet {

  private final Map<String, RunRow> runs = new TreeMap<>();
  private final List<HoldRow> holds = new ArrayList<>();
  private final List<WaitRow> waits = new ArrayList<>();
  private final List<Usage> usage = new ArrayList<>();
  /** What was reclaimed of runs whose process is gone, whoever they belonged to, since {@link #reclaimed()} was last read. */
  private final List<Reclaim> reclaimed = new ArrayList<>();
  /** The uids changes named since {@link #callers()} was last read. */
  private final Set<Long> callers = new TreeSet<>();

  /** Usage (share-seconds) of a user in the minute that begins at {@code at}. */
  record Usage(String user, Instant at, double amount) {}

  /**
   * A change made to a run whose process is gone: {@code task} null for the whole run, which ends as
   * {@code lost} when {@code state} is null, or is marked with {@code state} keeping its holds.
   */
  record Reclaim(String run, String task, String state, Instant at) {}

  /** One user's rows: their runs, the holds and waits of those runs, and their usage. */
  record Part(List<RunRow> runs, List<HoldRow> holds, List<WaitRow> waits, List<Usage> usage) {
    static final Part EMPTY = new Part(List.of(), List.of(), List.of(), List.of());

    List<HoldRow> holdsOf(String run) {
      return holds.stream().filter(h -> h.run().equals(run)).toList();
    }

    List<WaitRow> waitsOf(String run) {
      return waits.stream().filter(w -> w.run().equals(run)).toList();
    }
  }

  /** The tables over these rows, for one transaction. */
  LedgerStore.Tables tables() {
    return new Tables();
  }

  /** The rows of this uid's runs, and the usage of this user. */
  Part part(long uid, String user) {
    List<RunRow> own = runs.values().stream().filter(r -> r.uid() == uid).toList();
    Set<String> ids = new TreeSet<>();
    own.forEach(r -> ids.add(r.id()));
    return new Part(own, holds.stream().filter(h -> ids.contains(h.run())).toList(),
        waits.stream().filter(w -> ids.contains(w.run())).toList(),
        usage.stream().filter(u -> u.user().equals(user)).toList());
  }

  /** Whether there is a row of this run, live or ended. */
  boolean has(String run) {
    return runs.containsKey(run);
  }

  /**
   * Adds a run with its holds and waits when there is no row of it; false, adding nothing, when
   * there is one.
   */
  boolean carry(RunRow run, List<HoldRow> runHolds, List<WaitRow> runWaits) {
    if (runs.containsKey(run.id())) {
      return false;
    }
    runs.put(run.id(), run);
    holds.addAll(runHolds);
    waits.addAll(runWaits);
    return true;
  }

  /** Adds usage as it was read, beside what there is of that user and minute. */
  void addUsage(Usage u) {
    for (int i = 0; i < usage.size(); i++) {
      Usage old = usage.get(i);
      if (old.user().equals(u.user()) && old.at().equals(u.at())) {
        usage.set(i, new Usage(u.user(), u.at(), old.amount() + u.amount()));
        return;
      }
    }
    usage.add(u);
  }

  /** What was reclaimed since the last call, and forgets it. */
  List<Reclaim> reclaimed() {
    List<Reclaim> all = List.copyOf(reclaimed);
    reclaimed.clear();
    return all;
  }

  /** The uids that changes named since the last call (whether they changed anything), and forgets them. */
  Set<Long> callers() {
    Set<Long> all = Set.copyOf(callers);
    callers.clear();
    return all;
  }

  /** Makes a reclaim made in another transaction (and not written) again. */
  void replay(Reclaim r) {
    RunRow run = runs.get(r.run());
    if (run == null || !run.live()) {
      return;
    }
    if (r.task() != null) {
      holds.removeIf(h -> h.run().equals(r.run()) && h.task().equals(r.task()));
    } else if (r.state() == null) {
      ended(r.run(), "lost", r.at());
    } else if (!run.state().equals(r.state())) {
      orphaned(r.run(), r.state(), r.at());
    }
  }

  private boolean owns(String run, long uid) {
    callers.add(uid);
    RunRow r = runs.get(run);
    return r != null && r.uid() == uid;
  }

  private void ended(String run, String state, Instant at) {
    holds.removeIf(h -> h.run().equals(run));
    waits.removeIf(w -> w.run().equals(run));
    RunRow r = runs.get(run);
    runs.put(run, new RunRow(r.id(), r.host(), r.name(), r.workdir(), r.uid(), r.user(), r.pid(), r.pidStart(),
        state, 0, 0, r.done(), r.total(), r.startedAt(), at, at, r.tasksSince()));
  }

  private void orphaned(String run, String state, Instant at) {
    waits.removeIf(w -> w.run().equals(run));
    RunRow r = runs.get(run);
    runs.put(run, new RunRow(r.id(), r.host(), r.name(), r.workdir(), r.uid(), r.user(), r.pid(), r.pidStart(),
        state, r.running(), 0, r.done(), r.total(), r.startedAt(), at, null, r.tasksSince()));
  }

  private final class Tables implements LedgerStore.Tables {
    @Override
    public List<RunRow> runs() {
      return List.copyOf(runs.values());
    }

    @Override
    public List<HoldRow> holds() {
      return List.copyOf(holds);
    }

    @Override
    public List<WaitRow> waits() {
      return List.copyOf(waits);
    }

    @Override
    public Map<String, Double> usageSince(Instant since) {
      Map<String, Double> byUser = new TreeMap<>();
      usage.stream().filter(u -> !u.at().isBefore(since)).forEach(u -> byUser.merge(u.user(), u.amount(), Double::sum));
      return byUser;
    }

    @Override
    public boolean putRun(RunRow run, long uid) {
      callers.add(uid);
      RunRow old = runs.get(run.id());
      if (old != null && old.live() && old.uid() != uid) {
        return false;
      }
      holds.removeIf(h -> h.run().equals(run.id()));
      waits.removeIf(w -> w.run().equals(run.id()));
      runs.put(run.id(), run);
      return true;
    }

    @Override
    public void progress(String run, long uid, String state, int running, int waiting, int done, int total,
        Instant at) {
      RunRow r = runs.get(run);
      if (owns(run, uid) && r.live()) {
        runs.put(run, new RunRow(r.id(), r.host(), r.name(), r.workdir(), r.uid(), r.user(), r.pid(), r.pidStart(),
            state, running, waiting, done, total, r.startedAt(), at, null, r.tasksSince()));
      }
    }

    @Override
    public void end(String run, long uid, String state, Instant at) {
      if (owns(run, uid)) {
        ended(run, state, at);
      }
    }

    @Override
    public void reclaim(String run, Instant at) {
      ended(run, "lost", at);
      reclaimed.add(new Reclaim(run, null, null, at));
    }

    @Override
    public void reclaimTask(String run, String task) {
      holds.removeIf(h -> h.run().equals(run) && h.task().equals(task));
      reclaimed.add(new Reclaim(run, task, null, null));
    }

    @Override
    public void takeOver(String dead, String run, Instant at) {
      holds.replaceAll(h -> h.run().equals(dead)
          ? new HoldRow(run, h.task(), h.key(), h.label(), h.bytes(), h.measured(), h.milliCpus(), h.since()) : h);
      ended(dead, RESUMED, at);
    }

    @Override
    public void orphan(String run, String state, Instant at) {
      orphaned(run, state, at);
      reclaimed.add(new Reclaim(run, null, Objects.requireNonNull(state), at));
    }

    @Override
    public void addHold(HoldRow hold, long uid) {
      if (owns(hold.run(), uid)) {
        holds.removeIf(h -> h.run().equals(hold.run()) && h.task().equals(hold.task()) && h.key().equals(hold.key()));
        holds.add(hold);
      }
    }

    @Override
    public boolean removeHolds(String run, String task, long uid) {
      return owns(run, uid) && holds.removeIf(h -> h.run().equals(run) && h.task().equals(task));
    }

    @Override
    public void removeHold(String run, String task, String key, long uid) {
      if (owns(run, uid)) {
        holds.removeIf(h -> h.run().equals(run) && h.task().equals(task) && h.key().equals(key));
      }
    }

    @Override
    public void removeWait(String run, String task, long uid) {
      if (owns(run, uid)) {
        waits.removeIf(w -> w.run().equals(run) && w.task().equals(task));
      }
    }

    @Override
    public void measured(String run, String task, String key, long bytes, long uid) {
      if (!owns(run, uid)) {
        return;
      }
      holds.replaceAll(h -> h.run().equals(run) && h.task().equals(task) && h.key().equals(key)
          ? new HoldRow(h.run(), h.task(), h.key(), h.label(), h.bytes(), bytes, h.milliCpus(), h.since()) : h);
    }

    @Override
    public void replaceWaits(String run, List<WaitRow> rows, long uid) {
      if (owns(run, uid)) {
        waits.removeIf(w -> w.run().equals(run));
        waits.addAll(rows);
      }
    }

    @Override
    public void addUsage(String user, Instant at, double amount) {
      RowSet.this.addUsage(new Usage(user, at, amount));
    }

    @Override
    public void forgetBefore(Instant before) {
      runs.values().removeIf(r -> !r.live() && r.endedAt().isBefore(before));
      usage.removeIf(u -> u.at().isBefore(before));
    }
  }
}
