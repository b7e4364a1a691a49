package dev.berth.core.gpu;

import java.util.List;

/**
 * {@code remain-mem} (fedflow's {@code gpu-priority: remain-mem}): the device with the most free
 * memory first, ties by index. Same order as {@link MostFreePlacement}; the name follows fedflow's
 * configuration.
 */
public final class RemainingMemoryPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "remain-mem";

  private final MostFreePlacement sameOrder = new MostFreePlacement();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    return sameOrder.order(fitting, request);
  }
}
