package dev.berth.core.gpu;

import java.util.List;

/**
 * {@code first-fit}: the lowest device index first (fedflow's behaviour). Fills device 0 before it
 * touches device 1, which keeps the other devices free for large tasks that come later.
 */
public final class FirstFitPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "first-fit";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    return List.copyOf(Candidates.byIndex(fitting));
  }
}
