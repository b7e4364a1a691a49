package dev.berth.core.resources;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the other Berth runs on this host hold, as the host-wide ledger shows it: it reduces what a
 * decision pass sees as free, and a refusal names who holds it.
 *
 * @param holdings every other run's holdings, sorted by device, run and user
 * @param untold why the ledger cannot tell now all that other runs hold (it was made anew after its
 *     file was removed, and tasks of runs it does not know yet run on), in one line; while present
 *     no start may take anything, and every task that would start waits for this
 */
public record HeldElsewhere(List<Holding> holdings, Optional<String> untold) {

  private static final Comparator<Holding> ORDER = Comparator.comparing(Holding::device)
      .thenComparing(Holding::run).thenComparing(Holding::user);

  /** Nothing held elsewhere: a run alone on its host. */
  public static final HeldElsewhere NONE = new HeldElsewhere(List.of());

  /** Sorts and copies. */
  public HeldElsewhere {
    holdings = holdings.stream().sorted(ORDER).toList();
    Objects.requireNonNull(untold, "untold");
  }

  /** What the other runs hold, all of it told. */
  public HeldElsewhere(List<Holding> holdings) {
    this(holdings, Optional.empty());
  }

  /** The refusal every start gets while what other runs hold cannot all be told; empty otherwise. */
  public Optional<Refusal> untoldRefusal() {
    return untold.map(line -> new Refusal(Resource.HOST_LEDGER, HostBudget.HOST, Refusal.ANY, 0, 0, line));
  }

  /** Memory other runs hold on this device ({@code host} or a device id), in bytes. */
  public long memory(String device) {
    return holdings.stream().filter(h -> h.device().equals(device)).mapToLong(Holding::memoryBytes).sum();
  }

  /** Cores other runs hold on this host, in thousandths. */
  public long milliCpus() {
    return holdings.stream().mapToLong(Holding::milliCpus).sum();
  }

  /**
   * Who holds memory on this device, e.g. {@code 10 GiB held by run sweep-b of user alice}; empty
   * when nobody else does.
   */
  public Optional<String> memoryHolders(String device, Resource resource) {
    return describe(device, resource, Holding::memoryBytes);
  }

  /** Who holds cores on this host, e.g. {@code 4 held by run sweep-b of user alice}; empty when nobody else does. */
  public Optional<String> coreHolders() {
    return describe(HostBudget.HOST, Resource.CPUS, Holding::milliCpus);
  }

  private Optional<String> describe(String device, Resource resource, java.util.function.ToLongFunction<Holding> amount) {
    Map<String, Long> byRun = new LinkedHashMap<>();
    for (Holding h : holdings) {
      if (h.device().equals(device) && amount.applyAsLong(h) > 0) {
        byRun.merge("run " + h.run() + " of user " + h.user(), amount.applyAsLong(h), Long::sum);
      }
    }
    if (byRun.isEmpty()) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    byRun.forEach((who, bytes) -> parts.add(resource.format(bytes) + " held by " + who));
    return Optional.of(String.join(", ", parts));
  }
}
