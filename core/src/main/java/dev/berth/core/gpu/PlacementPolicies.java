package dev.berth.core.gpu;

import java.time.Duration;
import java.util.List;
import java.util.SortedSet;

/** The built-in placement policies by name ({@link PlacementPolicyName}). */
public final class PlacementPolicies {

  private PlacementPolicies() {}

  /**
   * The policy with this name, with its default settings ({@code auto}: 5 s intervals).
   *
   * @throws IllegalArgumentException naming the valid names, sorted, when there is none
   */
  public static PlacementPolicy byName(String name) {
    return PlacementPolicyName.of(name).create();
  }

  /**
   * The policy with this name, {@code auto} with the given intervals (other policies ignore them).
   *
   * @throws IllegalArgumentException naming the valid names, sorted, when there is none, or when an
   *     interval is negative
   */
  public static PlacementPolicy byName(String name, Duration putInterval, Duration availableInterval) {
    return byName(PlacementPolicyName.of(name), putInterval, availableInterval);
  }

  /**
   * The named policy, {@code auto} with the given intervals (other policies ignore them): what
   * {@code scheduler.placement}, {@code scheduler.put-interval} and {@code scheduler.available-interval}
   * configure together.
   *
   * @throws IllegalArgumentException when an interval is negative
   */
  public static PlacementPolicy byName(PlacementPolicyName name, Duration putInterval, Duration availableInterval) {
    PlacementPolicy policy = name.create();
    return policy instanceof AutoPlacement ? new AutoPlacement(putInterval, availableInterval) : policy;
  }

  /** Every built-in policy name, sorted. */
  public static SortedSet<String> names() {
    return PlacementPolicyName.labels();
  }

  /** One instance of every built-in policy, in name order. */
  public static List<PlacementPolicy> all() {
    return names().stream().map(PlacementPolicies::byName).toList();
  }
}
