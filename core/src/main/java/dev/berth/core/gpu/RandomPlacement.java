package dev.berth.core.gpu;

import java.util.List;
import java.util.SplittableRandom;

/**
 * {@code random} (FLGo's Random scheduler): a uniformly random order of the candidates, drawn from
 * {@link PlacementRequest#random()}, so the same run seed and placement sequence give the same
 * order.
 */
public final class RandomPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "random";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    List<DeviceState> devices = Candidates.byIndex(fitting);
    SplittableRandom random = request.random();
    for (int i = devices.size() - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      DeviceState swap = devices.get(i);
      devices.set(i, devices.get(j));
      devices.set(j, swap);
    }
    return List.copyOf(devices);
  }
}
