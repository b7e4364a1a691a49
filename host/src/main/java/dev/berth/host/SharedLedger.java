package dev.berth.host;

import dev.berth.host.LedgerStore.Tables;
import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservationsException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The host ledger's rules over a {@link LedgerStore}: one implementation whether the rows are in the
 * users' files of the host folder or in memory. Joining, looking and listing reclaim what runs whose
 * process is gone held, once none of their task processes lives either.
 */
final class SharedLedger implements SharedReservations {

  /** How long {@code berth ps -a} keeps showing a run that ended. */
  static final Duration ENDED_KEPT = Duration.ofDays(1);
  /** The window of usage the fair share between users looks at. */
  static final Duration USAGE_WINDOW = Duration.ofHours(1);
  /** The state of a run whose Berth process is gone while task processes of it still live. */
  static final String TASKS_LIVE = "lost, tasks live";
  private final LedgerStore store;
  private final String host;
  private final ProcessLiveness liveness;
  private final TaskProcesses tasks;
  private final HostLimits limits;
  private Run run;

  SharedLedger(LedgerStore store, String host, ProcessLiveness liveness, TaskProcesses tasks, HostLimits limits) {
    this.store = store;
    this.host = host;
    this.liveness = liveness;
    this.tasks = tasks;
    this.limits = limits;
  }

  @Override
  public synchronized void join(Run r, Instant now) {
    boolean joined = store.transaction(t -> {
      reclaimDead(t, now);
      // A dead run of this user in this folder whose tasks live is the one this run resumes. What it
      // held moves to this run in this transaction, so that what its task processes use is never
      // free in between; the adoption then keeps what the tasks it adopts hold.
      List<RunRow> resumed = t.liveRuns().stream().filter(dead -> dead.state().equals(TASKS_LIVE)
          && dead.uid() == r.uid() && dead.workdir().equals(r.workdir()) && dead.host().equals(host)).toList();
      long tasksSince = resumed.stream().mapToLong(RunRow::tasksSince).reduce(r.pidStart(), Math::min);
      t.forgetBefore(now.minus(ENDED_KEPT));
      if (!t.putRun(new RunRow(r.id(), host, r.name(), r.workdir(), r.uid(), r.user(), r.pid(), r.pidStart(),
          "starting", 0, 0, 0, 0, now, now, null, tasksSince), r.uid())) {
        return false;
      }
      resumed.forEach(dead -> t.takeOver(dead.id(), r.id(), now));
      return true;
    });
    if (!joined) {
      throw new SharedReservationsException(store.where() + ": run id " + r.id() + " belongs to another user's live run");
    }
    this.run = r;
  }

  @Override
  public synchronized List<Reservation> look(Progress p, List<Measured> measured, Instant now) {
    Run me = joined();
    return store.transaction(t -> {
      reclaimDead(t, now);
      t.progress(me.id(), me.uid(), p.state(), p.running(), p.waiting(), p.done(), p.total(), now);
      measured.forEach(m -> t.measured(me.id(), m.task(), m.key(), m.bytes(), me.uid()));
      Map<String, RunRow> runs = liveRuns(t);
      List<Reservation> others = new ArrayList<>();
      for (HoldRow h : t.holds()) {
        RunRow owner = runs.get(h.run());
        if (owner != null && !owner.id().equals(me.id())) {
          others.add(reservation(h, owner));
        }
      }
      return others;
    });
  }

  /** Every reader tells what every run holds: each user's rows are in a file only that user writes, and removes. */
  @Override
  public Optional<String> untold() {
    return Optional.empty();
  }

  @Override
  public synchronized Optional<String> take(Claim claim, Instant now) {
    return releaseAndTakeAll(List.of(), List.of(claim), now).get(0);
  }

  @Override
  public synchronized List<Optional<String>> releaseAndTakeAll(List<String> released, List<Claim> claims,
      Instant now) {
    Run me = joined();
    if (released.isEmpty() && claims.isEmpty()) {
      return List.of();
    }
    return store.transaction(t -> {
      // The holds are read once: what the released ones used is recorded from them, and the claims
      // see them without the released ones. No reclaiming here (it reads /proc for every run): a
      // refused claim makes the run look, which reclaims, and claim again.
      List<HoldRow> read = t.holds();
      Set<String> dropped = release(t, me, released, read, now);
      if (claims.isEmpty()) {
        return List.of();
      }
      Map<String, RunRow> runs = liveRuns(t);
      Claims pass = new Claims(t, me, now, runs, liveHoldsLeft(read, runs, me, dropped), new ArrayList<>(t.waits()));
      List<Optional<String>> refusals = new ArrayList<>(claims.size());
      for (Claim claim : claims) {
        refusals.add(pass.claim(claim));
      }
      return refusals;
    });
  }

  /** The holds of live runs as read, less those of this run's tasks whose holds the release dropped. */
  private static List<HoldRow> liveHoldsLeft(List<HoldRow> read, Map<String, RunRow> runs, Run me,
      Set<String> dropped) {
    List<HoldRow> left = new ArrayList<>(read.size() + 2);
    for (HoldRow h : read) {
      if (runs.containsKey(h.run()) && !(h.run().equals(me.id()) && dropped.contains(h.task()))) {
        left.add(h);
      }
    }
    return left;
  }

  /**
   * The claims of one transaction, seeing the rows as the claims before them left them: each claim
   * taken joins {@code holds} and leaves {@code waits}, as it does the tables.
   */
  private final class Claims {
    private final Tables t;
    private final Run me;
    private final Instant now;
    private final Map<String, RunRow> runs;
    private final List<HoldRow> holds;
    private final List<WaitRow> waits;
    private Map<String, Double> recentUsage; // read at most once, and only if a task of another run may come first

    Claims(Tables t, Run me, Instant now, Map<String, RunRow> runs, List<HoldRow> holds, List<WaitRow> waits) {
      this.t = t;
      this.me = me;
      this.now = now;
      this.runs = runs;
      this.holds = holds;
      this.waits = waits;
    }

    /**
     * Takes the claim unless a limit, the capacity or the host-wide order refuses it; empty when
     * taken. What the claim replaces of its task's own holds is not counted against it: a retry
     * that asks more never waits for what its own task holds.
     */
    Optional<String> claim(Claim claim) {
      List<HoldRow> replaced = holds.stream().filter(h -> replaces(claim, h)).toList();
      List<HoldRow> kept = replaced.isEmpty() ? holds : holds.stream().filter(h -> !replaces(claim, h)).toList();
      Optional<String> why = limits.refusal(me.user(), claim, kept, runs);
      if (why.isEmpty()) {
        Capacity held = Capacity.of(kept, runs);
        why = held.refusal(claim);
        if (why.isEmpty()) {
          why = HostOrder.of(waits, this::recentUsage, runs, kept, held, now).ahead(me, claim);
        }
      }
      if (why.isEmpty()) {
        if (!replaced.isEmpty()) {
          dropHolds(t, me, replaced, h -> true, now);
          holds.removeAll(replaced);
        }
        take(claim);
      }
      return why;
    }

    /**
     * Whether the claim replaces this hold: one of its own task's, on the host when the claim takes
     * host memory or cores, or on a GPU when the claim takes any (a task holds the devices of its
     * latest placement only, so a retry elsewhere gives the old device back).
     */
    private boolean replaces(Claim claim, HoldRow h) {
      if (!h.run().equals(me.id()) || !h.task().equals(claim.task())) {
        return false;
      }
      boolean host = claim.milliCpus() > 0 || claim.shares().stream().anyMatch(s -> s.key().equals(HOST));
      return h.key().equals(HOST) ? host : claim.gpus() > 0;
    }

    private void take(Claim claim) {
      List<HoldRow> taken = holdsOf(me, claim, now);
      for (HoldRow h : taken) {
        t.addHold(h, me.uid());
      }
      holds.addAll(taken);
      // Only this task's wait goes: the run's other waits are in the table as they were read.
      if (waits.removeIf(w -> w.run().equals(me.id()) && w.task().equals(claim.task()))) {
        t.removeWait(me.id(), claim.task(), me.uid());
      }
    }

    private Map<String, Double> recentUsage() {
      if (recentUsage == null) {
        recentUsage = t.usageSince(now.minus(USAGE_WINDOW));
      }
      return recentUsage;
    }
  }

  @Override
  public synchronized void adopt(List<Claim> claims, Instant now) {
    Run me = joined();
    store.transaction(t -> {
      // Everything the run holds now is what it took over when it joined: what a task it adopts
      // holds is replaced by its claim, and what a task it did not adopt held (its process ended
      // while no Berth watched it) goes back.
      dropHolds(t, me, t.holds(), h -> true, now);
      for (Claim claim : claims) {
        holdsOf(me, claim, now).forEach(h -> t.addHold(h, me.uid()));
        t.removeWait(me.id(), claim.task(), me.uid());
      }
      return null;
    });
  }

  /** The rows that hold what the claim asks for. */
  private static List<HoldRow> holdsOf(Run me, Claim claim, Instant now) {
    boolean hostShared = false;
    List<HoldRow> taken = new ArrayList<>(claim.shares().size() + 1);
    for (Share s : claim.shares()) {
      boolean host = s.key().equals(HOST);
      hostShared |= host;
      taken.add(new HoldRow(me.id(), claim.task(), s.key(), s.label(), s.bytes(), 0, host ? claim.milliCpus() : 0,
          now));
    }
    if (!hostShared && claim.milliCpus() > 0) {
      taken.add(new HoldRow(me.id(), claim.task(), HOST, HOST, 0, 0, claim.milliCpus(), now));
    }
    return taken;
  }

  @Override
  public synchronized void release(String task, Instant now) {
    releaseAll(List.of(task), now);
  }

  @Override
  public synchronized void releaseAll(List<String> tasks, Instant now) {
    Run me = joined();
    if (tasks.isEmpty()) {
      return;
    }
    store.transaction(t -> release(t, me, tasks, t.holds(), now));
  }

  /**
   * Releases what these tasks of the run hold, adding what they used, as {@code holds} (all of the
   * ledger's, read in this transaction) show it, to its user's usage once for all.
   *
   * @return the tasks whose holds were dropped
   */
  private static Set<String> release(Tables t, Run me, List<String> tasks, List<HoldRow> holds, Instant now) {
    if (tasks.isEmpty()) {
      return Set.of();
    }
    Set<String> released = new TreeSet<>(tasks);
    recordUsage(t, me, holds, h -> released.contains(h.task()), now);
    Set<String> dropped = new TreeSet<>();
    for (String task : released) {
      if (t.removeHolds(me.id(), task, me.uid())) {
        dropped.add(task);
      }
    }
    return dropped;
  }

  @Override
  public synchronized void releaseDevices(List<String> tasks, Instant now) {
    Run me = joined();
    if (tasks.isEmpty()) {
      return;
    }
    Set<String> which = new TreeSet<>(tasks);
    store.transaction(t -> {
      dropHolds(t, me, t.holds(), h -> which.contains(h.task()) && !h.key().equals(HOST), now);
      return null;
    });
  }

  /** Drops these holds of this run, adding what they used to its user's usage. */
  private static void dropHolds(Tables t, Run me, List<HoldRow> holds, Predicate<HoldRow> which, Instant now) {
    recordUsage(t, me, holds, which, now);
    for (HoldRow h : holds) {
      if (h.run().equals(me.id()) && which.test(h)) {
        t.removeHold(me.id(), h.task(), h.key(), me.uid());
      }
    }
  }

  @Override
  public synchronized void waiting(List<Demand> demands, Instant now) {
    Run me = joined();
    store.transaction(t -> {
      Map<String, Instant> since = new TreeMap<>();
      t.waits().stream().filter(w -> w.run().equals(me.id())).forEach(w -> since.put(w.task(), w.since()));
      List<WaitRow> rows = demands.stream().map(d -> new WaitRow(me.id(), d.task(), d.priority(),
          since.getOrDefault(d.task(), now), d.milliCpus(), d.hostMemoryBytes(), d.gpuMemoryBytes(), d.gpus(),
          d.devices())).toList();
      t.replaceWaits(me.id(), rows, me.uid());
      return null;
    });
  }

  @Override
  public synchronized void leave(String state, Instant now) {
    if (run == null) {
      return;
    }
    Run me = run;
    store.transaction(t -> {
      recordUsage(t, me, t.holds(), h -> true, now);
      t.end(me.id(), me.uid(), state, now);
      return null;
    });
    run = null;
  }

  @Override
  public synchronized List<RunEntry> runs(boolean ended, Instant now) {
    return store.transaction(t -> {
      reclaimDead(t, now);
      List<HoldRow> holds = t.holds();
      List<RunEntry> entries = new ArrayList<>();
      for (RunRow r : t.runs()) {
        if (!r.live() && !ended) {
          continue;
        }
        List<Reservation> held = holds.stream().filter(h -> h.run().equals(r.id())).map(h -> reservation(h, r)).toList();
        entries.add(new RunEntry(r.id(), r.name(), r.user(), r.pid(), r.workdir(),
            new Progress(r.state(), r.running(), r.waiting(), r.done(), r.total()), r.startedAt(),
            Optional.ofNullable(r.endedAt()), held));
      }
      entries.sort(java.util.Comparator.comparing(RunEntry::startedAt).thenComparing(RunEntry::name)
          .thenComparing(RunEntry::run));
      return entries;
    });
  }

  @Override
  public String where() {
    return store.where();
  }

  @Override
  public void close() {
    store.close();
  }

  private Run joined() {
    if (run == null) {
      throw new IllegalStateException("join the host ledger first");
    }
    return run;
  }

  /**
   * Ends every live run on this host whose process is gone (or is another process under a reused
   * pid) and none of whose task processes lives (those it adopted from runs it resumed included);
   * one whose tasks live is marked {@link #TASKS_LIVE} and keeps what those tasks hold until they are
   * gone.
   */
  private void reclaimDead(Tables t, Instant now) {
    List<HoldRow> holds = null; // read once, and only when a dead run's tasks live
    for (RunRow r : t.liveRuns()) {
      if (!r.host().equals(host) || liveness.alive(r.pid(), r.pidStart())) {
        continue;
      }
      Set<String> live = tasks.liveTasks(r.workdir(), r.uid(), r.tasksSince());
      if (live.isEmpty()) {
        t.reclaim(r.id(), now);
        continue;
      }
      if (!r.state().equals(TASKS_LIVE)) {
        t.orphan(r.id(), TASKS_LIVE, now);
      }
      if (!live.contains(TaskProcesses.UNKNOWN)) {
        // What a task none of whose processes lives held goes back now, not with the run's last task.
        holds = holds != null ? holds : t.holds();
        Set<String> ended = new TreeSet<>();
        holds.stream().filter(h -> h.run().equals(r.id()) && !live.contains(h.task())).forEach(h -> ended.add(h.task()));
        ended.forEach(task -> t.reclaimTask(r.id(), task));
      }
    }
  }

  private static Map<String, RunRow> liveRuns(Tables t) {
    Map<String, RunRow> live = new TreeMap<>();
    t.liveRuns().forEach(r -> live.put(r.id(), r));
    return live;
  }

  /** Adds what the released holds used (GiB of memory plus cores, times seconds) to their user's recent usage. */
  private static void recordUsage(Tables t, Run me, List<HoldRow> holds, Predicate<HoldRow> which, Instant now) {
    double amount = 0;
    for (HoldRow h : holds) {
      if (h.run().equals(me.id()) && which.test(h)) {
        amount += h.usedBy(now);
      }
    }
    if (amount > 0) {
      // Counted in the minute it falls in (a minute more or less of an hour's window is no matter).
      t.addUsage(me.user(), now.truncatedTo(ChronoUnit.MINUTES), amount);
    }
  }

  private static Reservation reservation(HoldRow h, RunRow owner) {
    return new Reservation(owner.id(), owner.name(), owner.user(), h.task(), h.key(), h.label(), h.bytes(),
        h.measured(), h.milliCpus());
  }
}
