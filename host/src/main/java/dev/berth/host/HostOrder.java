package dev.berth.host;

import dev.berth.host.LedgerStore.Tables;
import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Demand;
import dev.berth.spi.SharedReservations.Run;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The one queue across runs: tasks that wait anywhere on the host are ordered by priority (higher
 * first), then by their user's recent usage (less first: fair share between users), then by how
 * long they have waited; a claim is refused while the tasks before it in that order that fit in
 * what is free now would leave too little for it.
 */
final class HostOrder {

  private final List<WaitRow> waits;
  private final Map<String, RunRow> runs;
  private final List<HoldRow> holds;
  private final Map<String, Double> usage;
  private final Instant now;

  private HostOrder(List<WaitRow> waits, Map<String, RunRow> runs, List<HoldRow> holds, Map<String, Double> usage,
      Instant now) {
    this.waits = waits;
    this.runs = runs;
    this.holds = holds;
    this.usage = usage;
    this.now = now;
  }

  /**
   * The order as the ledger holds it now, for a claim of run {@code me}. The users' recent usage is
   * read only when a task of another live run waits: otherwise nothing comes before the claim.
   */
  static HostOrder of(Tables t, String me, Map<String, RunRow> runs, List<HoldRow> holds, Instant now) {
    return of(t.waits(), t::usageSince, me, runs, holds, now);
  }

  /** The order, as {@link #of(Tables, String, Map, List, Instant)}, from rows already read. */
  static HostOrder of(List<WaitRow> waits, java.util.function.Function<Instant, Map<String, Double>> usageSince,
      String me, Map<String, RunRow> runs, List<HoldRow> holds, Instant now) {
    boolean othersWait = waits.stream().anyMatch(w -> !w.run().equals(me) && runs.containsKey(w.run()));
    Map<String, Double> usage = othersWait ? new TreeMap<>(usageSince.apply(now.minus(SharedLedger.USAGE_WINDOW)))
        : new TreeMap<>();
    for (HoldRow h : holds) {
      RunRow owner = runs.get(h.run());
      double seconds = Math.max(0, Duration.between(h.since(), now).toMillis() / 1000.0);
      usage.merge(owner.user(), seconds * (h.bytes() / (double) (1L << 30) + h.milliCpus() / 1000.0), Double::sum);
    }
    return new HostOrder(waits, runs, holds, usage, now);
  }

  /**
   * The task of another run that comes before this claim and would lose its place to it, described;
   * empty if none. The tasks before the claim are given what they need in their order, each that fits
   * now as if it were taken; the claim must still fit in what they leave.
   */
  Optional<String> ahead(Run me, Claim claim) {
    Instant since = waits.stream().filter(w -> w.run().equals(me.id()) && w.task().equals(claim.task()))
        .map(WaitRow::since).findFirst().orElse(now);
    Key mine = new Key(claim.priority(), usage.getOrDefault(me.user(), 0.0), since);
    List<WaitRow> before = waits.stream()
        .filter(w -> !w.run().equals(me.id()) && runs.containsKey(w.run()))
        .filter(w -> Key.ORDER.compare(key(w), mine) < 0)
        .sorted(Comparator.comparing(this::key, Key.ORDER))
        .toList();
    Capacity left = Capacity.of(holds, runs);
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

  private Key key(WaitRow w) {
    return new Key(w.priority(), usage.getOrDefault(runs.get(w.run()).user(), 0.0), w.since());
  }

  private static Demand demand(WaitRow w) {
    return new Demand(w.task(), w.priority(), w.milliCpus(), w.hostMemory(), w.gpuMemory(), w.gpus(), w.devices());
  }

  private record Key(int priority, double usage, Instant since) {
    static final Comparator<Key> ORDER = Comparator.comparingInt((Key k) -> -k.priority())
        .thenComparingDouble(Key::usage).thenComparing(Key::since);
  }
}
