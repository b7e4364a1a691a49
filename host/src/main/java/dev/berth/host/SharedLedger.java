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
import java.util.TreeMap;

/**
 * The host ledger's rules over a {@link LedgerStore}: one implementation whether the rows are in the
 * host's SQLite file or in memory. Joining, looking and listing reclaim what runs whose process is gone held.
 */
final class SharedLedger implements SharedReservations {

  /** How long {@code berth ps -a} keeps showing a run that ended. */
  static final Duration ENDED_KEPT = Duration.ofDays(1);
  /** The window of usage the fair share between users looks at. */
  static final Duration USAGE_WINDOW = Duration.ofHours(1);

  private final LedgerStore store;
  private final String host;
  private final ProcessLiveness liveness;
  private final HostLimits limits;
  private Run run;

  SharedLedger(LedgerStore store, String host, ProcessLiveness liveness, HostLimits limits) {
    this.store = store;
    this.host = host;
    this.liveness = liveness;
    this.limits = limits;
  }

  @Override
  public synchronized void join(Run r, Instant now) {
    boolean joined = store.transaction(t -> {
      reclaimDead(t, now);
      t.forgetBefore(now.minus(ENDED_KEPT));
      return t.putRun(new RunRow(r.id(), host, r.name(), r.workdir(), r.uid(), r.user(), r.pid(), r.pidStart(),
          "starting", 0, 0, 0, 0, now, now, null), r.uid());
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

  @Override
  public synchronized Optional<String> take(Claim claim, Instant now) {
    return releaseAndTakeAll(List.of(), List.of(claim), now).get(0);
  }

  @Override
  public synchronized List<Optional<String>> releaseAndTakeAll(List<String> released, List<Claim> claims,
      Instant now) {
    Run me = joined();
    return store.transaction(t -> {
      release(t, me, released, now);
      // No reclaiming here (it reads /proc for every run): a refused claim makes the run look, which
      // reclaims, and claim again. The rows are read once; each claim taken joins them for the next.
      Map<String, RunRow> runs = liveRuns(t);
      List<HoldRow> holds = new ArrayList<>(t.holds().stream().filter(h -> runs.containsKey(h.run())).toList());
      List<WaitRow> waits = new ArrayList<>(t.waits());
      Map<Instant, Map<String, Double>> usage = new TreeMap<>(); // read at most once, and only if another run waits
      java.util.function.Function<Instant, Map<String, Double>> usageSince =
          since -> usage.computeIfAbsent(since, t::usageSince);
      List<Optional<String>> refusals = new ArrayList<>();
      for (Claim claim : claims) {
        refusals.add(claim(t, me, claim, now, runs, holds, waits, usageSince));
      }
      return refusals;
    });
  }

  /**
   * Takes the claim unless a limit, the capacity or the host-wide order refuses it, seeing the rows
   * as the claims before it in the same transaction left them (its holds join {@code holds}, its
   * wait leaves {@code waits}).
   */
  private Optional<String> claim(Tables t, Run me, Claim claim, Instant now, Map<String, RunRow> runs,
      List<HoldRow> holds, List<WaitRow> waits, java.util.function.Function<Instant, Map<String, Double>> usageSince) {
    Optional<String> why = limits.refusal(me.user(), claim, holds, runs);
    if (why.isEmpty()) {
      why = Capacity.of(holds, runs).refusal(claim);
    }
    if (why.isEmpty()) {
      why = HostOrder.of(waits, usageSince, me.id(), runs, holds, now).ahead(me, claim);
    }
    if (why.isPresent()) {
      return why;
    }
    List<HoldRow> taken = new ArrayList<>();
    for (Share s : claim.shares()) {
      long cpus = s.key().equals(HOST) ? claim.milliCpus() : 0;
      taken.add(new HoldRow(me.id(), claim.task(), s.key(), s.label(), s.bytes(), 0, cpus, now));
    }
    if (claim.shares().stream().noneMatch(s -> s.key().equals(HOST)) && claim.milliCpus() > 0) {
      taken.add(new HoldRow(me.id(), claim.task(), HOST, HOST, 0, 0, claim.milliCpus(), now));
    }
    taken.forEach(h -> t.addHold(h, me.uid()));
    holds.addAll(taken);
    if (waits.removeIf(w -> w.run().equals(me.id()) && w.task().equals(claim.task()))) {
      t.replaceWaits(me.id(), waits.stream().filter(w -> w.run().equals(me.id())).toList(), me.uid());
    }
    return Optional.empty();
  }

  @Override
  public synchronized void release(String task, Instant now) {
    releaseAll(List.of(task), now);
  }

  @Override
  public synchronized void releaseAll(List<String> tasks, Instant now) {
    Run me = joined();
    store.transaction(t -> {
      release(t, me, tasks, now);
      return null;
    });
  }

  /** Releases what these tasks of the run hold, adding what they used to its user's usage once for all. */
  private static void release(Tables t, Run me, List<String> tasks, Instant now) {
    if (tasks.isEmpty()) {
      return;
    }
    java.util.Set<String> released = new java.util.TreeSet<>(tasks);
    recordUsage(t, me, h -> released.contains(h.task()), now);
    released.forEach(task -> t.removeHolds(me.id(), task, me.uid()));
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
      recordUsage(t, me, h -> true, now);
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

  /** Ends every live run on this host whose process is gone (or is another process under a reused pid). */
  private void reclaimDead(Tables t, Instant now) {
    for (RunRow r : t.liveRuns()) {
      if (r.host().equals(host) && !liveness.alive(r.pid(), r.pidStart())) {
        t.reclaim(r.id(), now);
      }
    }
  }

  private static Map<String, RunRow> liveRuns(Tables t) {
    Map<String, RunRow> live = new TreeMap<>();
    t.liveRuns().forEach(r -> live.put(r.id(), r));
    return live;
  }

  /** Adds what the released holds used (GiB of memory plus cores, times seconds) to their user's recent usage. */
  private static void recordUsage(Tables t, Run me, java.util.function.Predicate<HoldRow> which, Instant now) {
    double amount = 0;
    for (HoldRow h : t.holds()) {
      if (h.run().equals(me.id()) && which.test(h)) {
        double seconds = Math.max(0, Duration.between(h.since(), now).toMillis() / 1000.0);
        amount += seconds * (h.bytes() / (double) (1L << 30) + h.milliCpus() / 1000.0);
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
