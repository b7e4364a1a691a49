package dev.berth.core.gpu;

import java.util.Comparator;
import java.util.List;

/**
 * {@code total-mem} (fedflow's {@code gpu-priority: total-mem}): the device with the largest total
 * memory first, ties by index. Prefers the big cards on a machine that mixes models.
 */
public final class TotalMemoryPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "total-mem";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    return Candidates.sorted(fitting, Comparator.comparingLong(DeviceState::totalMemoryBytes).reversed());
  }
}
