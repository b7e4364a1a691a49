package dev.berth.core.gpu;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * {@code lru} (ipyparallel's scheme of that name): the device Berth placed a task on least recently
 * first; devices never placed on come before all others; ties by index.
 */
public final class LeastRecentlyUsedPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "lru";

  private static final Comparator<DeviceState> OLDEST_PLACEMENT_FIRST =
      Comparator.comparing(DeviceState::lastPlacedAt, Comparator.nullsFirst(Comparator.<Instant>naturalOrder()));

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    return Candidates.sorted(fitting, OLDEST_PLACEMENT_FIRST);
  }
}
