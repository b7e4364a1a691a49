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
    return policy instanceof AutoPlacement ? new AutoPlacement(putInterval, availableInterval) : policy;
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
        FirstFitPlacement::new, BestFitPlacement::new, MostFreePlacement::new, RoundRobinPlacement::new,
        RandomPlacement::new, AutoPlacement::new, LeastLoadPlacement::new, LeastRecentlyUsedPlacement::new,
        TwoBinPlacement::new, WeightedPlacement::new);
    List<Supplier<PlacementPolicy>> reversible =
        List.of(PciPlacement::new, TotalMemoryPlacement::new, RemainingMemoryPlacement::new);
    for (Supplier<PlacementPolicy> p : plain) {
      policies.put(p.get().name(), p);
    }
    for (Supplier<PlacementPolicy> p : reversible) {
      policies.put(p.get().name(), p);
      policies.put(p.get().name() + ReversedPlacement.SUFFIX, () -> new ReversedPlacement(p.get()));
    }
    return Map.copyOf(policies);
  }
}
