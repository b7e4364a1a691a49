package dev.berth.core.gpu;

import java.util.Comparator;
import java.util.List;

/**
 * {@code most-free}: the device with the most free memory first, ties by index. Spreads tasks so
 * each gets the most headroom.
 */
public final class MostFreePlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "most-free";

  static final Comparator<DeviceState> MOST_FREE_FIRST =
      Comparator.comparingLong(DeviceState::freeMemoryBytes).reversed();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    return Candidates.sorted(fitting, MOST_FREE_FIRST);
  }
}
