package dev.berth.core.gpu;

import java.util.Comparator;
import java.util.List;

/**
 * {@code best-fit}: the device with the least free memory that still fits first, ties by index.
 * Packs small tasks tightly so that large free blocks stay whole.
 */
public final class BestFitPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "best-fit";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    return Candidates.sorted(fitting, Comparator.comparingLong(DeviceState::freeMemoryBytes));
  }
}
