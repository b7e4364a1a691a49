package dev.berth.host;

import dev.berth.core.resources.Resource;
import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Demand;
import dev.berth.spi.SharedReservations.Share;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** What every live run holds on each device of the host, and what still fits under the limits. */
final class Capacity {

  private final Map<String, Long> held = new TreeMap<>();
  // Holders by run id, named only in a refusal: most claims are taken, and need no names.
  private final Map<String, Set<String>> holders = new TreeMap<>();
  private long milliCpus;
  private final Set<String> cpuHolders = new LinkedHashSet<>();
  private final Map<String, RunRow> runs;

  private Capacity(Map<String, RunRow> runs) {
    this.runs = runs;
  }

  static Capacity of(Iterable<HoldRow> holds, Map<String, RunRow> runs) {
    Capacity c = new Capacity(runs);
    for (HoldRow h : holds) {
      c.held.merge(h.key(), h.bytes(), Long::sum);
      if (h.bytes() > 0) {
        c.holders.computeIfAbsent(h.key(), k -> new LinkedHashSet<>()).add(h.run());
      }
      c.milliCpus += h.milliCpus();
      if (h.milliCpus() > 0) {
        c.cpuHolders.add(h.run());
      }
    }
    return c;
  }

  /** The same capacity with the claim taken too. */
  Capacity plus(Claim claim) {
    Capacity c = new Capacity(runs);
    c.held.putAll(held);
    holders.forEach((k, v) -> c.holders.put(k, new LinkedHashSet<>(v)));
    c.milliCpus = milliCpus + claim.milliCpus();
    c.cpuHolders.addAll(cpuHolders);
    claim.shares().forEach(s -> c.held.merge(s.key(), s.bytes(), Long::sum));
    return c;
  }

  /**
   * The same capacity with the demand given what it needs, as if it were taken now: its GPU memory on
   * the devices that fit it, those the claim does not use first, then the fullest (best fit), so
   * the demand leaves the claim as much room as it can.
   */
  Capacity plus(Demand d, Claim claim) {
    Capacity c = plus(new Claim(d.task(), d.priority(), d.milliCpus(), Long.MAX_VALUE,
        d.hostMemoryBytes() > 0 ? List.of(new Share(SharedReservations.HOST, SharedReservations.HOST,
            d.hostMemoryBytes(), Long.MAX_VALUE)) : List.of()));
    Set<String> claimed = new java.util.TreeSet<>();
    claim.shares().forEach(s -> claimed.add(s.key()));
    d.devices().stream()
        .filter(s -> !s.key().equals(SharedReservations.HOST) && d.gpuMemoryBytes() <= free(s))
        .sorted(Comparator.comparing((Share s) -> claimed.contains(s.key())).thenComparingLong(this::free)
            .thenComparing(Share::key))
        .limit(d.gpus())
        .forEach(s -> c.held.merge(s.key(), d.gpuMemoryBytes(), Long::sum));
    return c;
  }

  /** Why the claim does not fit with what is held, if it does not. */
  Optional<String> refusal(Claim claim) {
    if (claim.milliCpus() > 0 && milliCpus + claim.milliCpus() > claim.cpuLimit()) {
      return Optional.of("cpus on host: asked " + Resource.CPUS.format(claim.milliCpus()) + ", free "
          + Resource.CPUS.format(Math.max(0, claim.cpuLimit() - milliCpus)) + "; held by " + named(cpuHolders));
    }
    for (Share s : claim.shares()) {
      long free = free(s);
      if (s.bytes() > free) {
        Resource r = s.key().equals(SharedReservations.HOST) ? Resource.MEMORY : Resource.GPU_MEMORY;
        return Optional.of(r.key() + " on " + s.label() + ": asked " + r.format(s.bytes()) + ", free "
            + r.format(Math.max(0, free)) + " of " + r.format(s.limitBytes()) + "; held by "
            + named(holders.getOrDefault(s.key(), Set.of())));
      }
    }
    return Optional.empty();
  }

  /** The runs as people know them, each named once (two runs may share a name and user). */
  private String named(Set<String> runIds) {
    Set<String> names = new LinkedHashSet<>();
    for (String id : runIds) {
      RunRow owner = runs.get(id);
      names.add(owner == null ? "run " + id : "run " + owner.name() + " of user " + owner.user());
    }
    return String.join(", ", names);
  }

  /** Whether the demand would fit now. */
  boolean fits(Demand d, long cpuLimit) {
    if (d.milliCpus() > 0 && milliCpus + d.milliCpus() > cpuLimit) {
      return false;
    }
    int devices = 0;
    for (Share s : d.devices()) {
      if (s.key().equals(SharedReservations.HOST)) {
        if (d.hostMemoryBytes() > free(s)) {
          return false;
        }
      } else if (d.gpuMemoryBytes() <= free(s)) {
        devices++;
      }
    }
    return devices >= d.gpus();
  }

  private long free(Share s) {
    return s.limitBytes() - held.getOrDefault(s.key(), 0L);
  }
}
