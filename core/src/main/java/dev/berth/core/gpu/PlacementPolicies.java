package dev.berth.core.gpu;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/** The built-in placement policies by name. */
public final class PlacementPolicies {

  private static final Map<String, Supplier<PlacementPolicy>> BY_NAME = registry();

  private PlacementPolicies() {}

  /**
   * The policy with this name, with its default settings ({@code auto}: 5 s intervals).
   *
   * @throws IllegalArgumentException naming the valid names, sorted, when there is none
   */
  public static PlacementPolicy byName(String name) {
    Supplier<PlacementPolicy> policy = name == null ? null : BY_NAME.get(name.strip());
    if (policy == null) {
      throw new IllegalArgumentException(
          "unknown GPU placement policy '" + name + "'; use one of " + String.join(", ", names()));
    }
    return policy.get();
  }

  /**
   * The policy with this name, {@code auto} with the given intervals (other policies ignore them):
   * what {@code scheduler.placement}, {@code scheduler.put-interval} and
   * {@code scheduler.available-interval} configure together.
   *
   * @throws IllegalArgumentException naming the valid names, sorted, when there is none, or when an
   *     interval is negative
   */
  public static PlacementPolicy byName(String name, Duration putInterval, Duration availableInterval) {
    PlacementPolicy policy = byName(name);
    return policy instanceof Auto ? new Auto(putInterval, availableInterval) : policy;
  }

  /** Every built-in policy name, sorted. */
  public static SortedSet<String> names() {
    return new TreeSet<>(BY_NAME.keySet());
  }

  /** One instance of every built-in policy, in name order. */
  public static List<PlacementPolicy> all() {
    return names().stream().map(PlacementPolicies::byName).toList();
  }

  private static Map<String, Supplier<PlacementPolicy>> registry() {
    Map<String, Supplier<PlacementPolicy>> policies = new TreeMap<>();
    List<Supplier<PlacementPolicy>> plain = List.of(
        FirstFit::new, BestFit::new, MostFree::new, RoundRobin::new, RandomOrder::new, Auto::new,
        LeastLoad::new, LeastRecentlyUsed::new, TwoBin::new, Weighted::new);
    List<Supplier<PlacementPolicy>> reversible = List.of(PciOrder::new, TotalMemoryOrder::new, RemainingMemoryOrder::new);
    for (Supplier<PlacementPolicy> p : plain) {
      policies.put(p.get().name(), p);
    }
    for (Supplier<PlacementPolicy> p : reversible) {
      policies.put(p.get().name(), p);
      policies.put(p.get().name() + Reversed.SUFFIX, () -> new Reversed(p.get()));
    }
    return Map.copyOf(policies);
  }
}
