package dev.berth.host;

import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Demand;
import dev.berth.spi.SharedReservations.Run;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The one queue across runs: tasks that wait anywhere on the host are ordered by priority (higher
 * first), then by their user's recent usage (less first: fair share between users), then by how
 * long they have waited; a claim is refused while the tasks before it in that order that fit in
 * what is free now would leave too little for it. A claim stands where its run's longest wait
 * stands: which of its tasks a run starts first is its own queue's to say.
 */
final class HostOrder {

  private final List<WaitRow> waits;
  private final Supplier<Map<String, Double>> recentUsage;
  private final Map<String, RunRow> runs;
  private final List<HoldRow> holds;
  private final Capacity held;
  private final Instant now;
  private Map<String, Double> usage; // made only when the claim's place in the order can matter

  private HostOrder(List<WaitRow> waits, Supplier<Map<String, Double>> recentUsage, Map<String, RunRow> runs,
      List<HoldRow> holds, Capacity held, Instant now) {
    this.waits = waits;
    this.recentUsage = recentUsage;
    this.runs = runs;
    this.holds = holds;
    this.held = held;
    this.now = now;
  }

  /**
   * The order as the ledger's rows, read in this transaction, give it: the waits, the live runs, their
   * holds and what those hold together. The users' recent usage (since {@link SharedLedger#USAGE_WINDOW}
   * ago) is asked for only when a task of another live run waits and would fit now: otherwise nothing
   * comes before a claim.
   */
  static HostOrder of(List<WaitRow> waits, Supplier<Map<String, Double>> recentUsage, Map<String, RunRow> runs,
      List<HoldRow> holds, Capacity held, Instant now) {
    return new HostOrder(waits, recentUsage, runs, holds, held, now);
  }

  /**
   * The task of another run that comes before this claim and would lose its place to it, described;
   * empty if none. The tasks before the claim are given what they need in their order, each that fits
   * now as if it were taken; the claim must still fit in what they leave.
   */
  Optional<String> ahead(Run me, Claim claim) {
    if (!anotherFitsNow(me.id(), claim.cpuLimit())) {
      // None of them would be given anything, whatever their order: the usage that orders them is not read.
      return Optional.empty();
    }
    // A run starts its waiting tasks in its own order, which may hold one back behind another (a
    // loaded two-stage task's train share before new starts): its claim takes the place of its
    // run's longest wait at the claim's priority or below. Were it placed by its own task's wait, a
    // task another run's queue held back could stand before it while that run's claim stood behind
    // a wait of this run: a circle in which nobody starts.
    Instant since = now;
    for (WaitRow w : waits) {
      if (w.run().equals(me.id()) && w.priority() <= claim.priority() && w.since().isBefore(since)) {
        since = w.since();
      }
    }
    Key mine = new Key(claim.priority(), usage().getOrDefault(me.user(), 0.0), since);
    List<WaitRow> before = waits.stream()
        .filter(w -> !w.run().equals(me.id()) && runs.containsKey(w.run()))
        .filter(w -> Key.ORDER.compare(key(w), mine) < 0)
        .sorted(Comparator.comparing(this::key, Key.ORDER))
        .toList();
    Capacity left = held;
    WaitRow first = null;
    for (WaitRow w : before) {
      Demand d = demand(w);
      if (left.fits(d, claim.cpuLimit())) {
        left = left.plus(d, claim);
        first = first == null ? w : first;
      }
    }
    if (first == null || left.refusal(claim).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("task " + first.task() + " of run " + runs.get(first.run()).name() + " of user "
        + runs.get(first.run()).user() + " waits before it for the same resources [host-wide order]");
  }

  /** Whether a task of another live run waits that would fit in what is free now, before any claim. */
  private boolean anotherFitsNow(String me, long cpuLimit) {
    for (WaitRow w : waits) {
      if (!w.run().equals(me) && runs.containsKey(w.run()) && held.fits(demand(w), cpuLimit)) {
        return true;
      }
    }
    return false;
  }

  /** Each user's usage in the window: what their released holds used, and their live holds so far. */
  private Map<String, Double> usage() {
    if (usage == null) {
      usage = new TreeMap<>(recentUsage.get());
      for (HoldRow h : holds) {
        usage.merge(runs.get(h.run()).user(), h.usedBy(now), Double::sum);
      }
    }
    return usage;
  }

  private Key key(WaitRow w) {
    return new Key(w.priority(), usage().getOrDefault(runs.get(w.run()).user(), 0.0), w.since());
  }

  private static Demand demand(WaitRow w) {
    return new Demand(w.task(), w.priority(), w.milliCpus(), w.hostMemory(), w.gpuMemory(), w.gpus(), w.devices());
  }

  private record Key(int priority, double usage, Instant since) {
    static final Comparator<Key> ORDER = Comparator.comparingInt((Key k) -> -k.priority())
        .thenComparingDouble(Key::usage).thenComparing(Key::since);
  }
}
