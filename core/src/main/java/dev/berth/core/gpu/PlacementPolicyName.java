package dev.berth.core.gpu;

import java.util.Arrays;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * A built-in placement policy, by the name a spec gives it ({@code scheduler.placement} and a task's
 * {@code placement}): the typed form of that setting.
 */
public enum PlacementPolicyName {
  SPREAD(SpreadPlacement::new),
  FIRST_FIT(FirstFitPlacement::new),
  BEST_FIT(BestFitPlacement::new),
  MOST_FREE(MostFreePlacement::new),
  ROUND_ROBIN(RoundRobinPlacement::new),
  RANDOM(RandomPlacement::new),
  AUTO(AutoPlacement::new),
  LEAST_LOAD(LeastLoadPlacement::new),
  LEAST_RECENTLY_USED(LeastRecentlyUsedPlacement::new),
  TWO_BIN(TwoBinPlacement::new),
  WEIGHTED(WeightedPlacement::new),
  PCI(PciPlacement::new),
  PCI_REVERSE(() -> new ReversedPlacement(new PciPlacement())),
  TOTAL_MEM(TotalMemoryPlacement::new),
  TOTAL_MEM_REVERSE(() -> new ReversedPlacement(new TotalMemoryPlacement())),
  REMAIN_MEM(RemainingMemoryPlacement::new),
  REMAIN_MEM_REVERSE(() -> new ReversedPlacement(new RemainingMemoryPlacement()));

  private final Supplier<PlacementPolicy> make;
  private final String label;

  PlacementPolicyName(Supplier<PlacementPolicy> make) {
    this.make = make;
    this.label = make.get().name();
  }

  /**
   * The policy named {@code name}, e.g. {@code best-fit}.
   *
   * @throws IllegalArgumentException naming the valid names, sorted, when there is none
   */
  public static PlacementPolicyName of(String name) {
    String given = name == null ? null : name.strip();
    Optional<PlacementPolicyName> found = Arrays.stream(values()).filter(p -> p.label.equals(given)).findFirst();
    return found.orElseThrow(() -> new IllegalArgumentException(
        "unknown GPU placement policy '" + name + "'; use one of " + String.join(", ", labels())));
  }

  /** Every name, sorted. */
  public static SortedSet<String> labels() {
    SortedSet<String> labels = new TreeSet<>();
    Arrays.stream(values()).forEach(p -> labels.add(p.label));
    return labels;
  }

  /** The name as a spec writes it, e.g. {@code best-fit}. */
  public String label() {
    return label;
  }

  /** A new instance of the policy with its default settings. */
  PlacementPolicy create() {
    return make.get();
  }

  @Override
  public String toString() {
    return label;
  }
}
