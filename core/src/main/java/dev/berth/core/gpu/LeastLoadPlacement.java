package dev.berth.core.gpu;

import java.util.Comparator;
import java.util.List;

/**
 * {@code leastload} (ipyparallel's default scheme): the device running the fewest Berth tasks first,
 * ties by index. Only Berth's own tasks count as load; other users' processes show in the free
 * memory instead.
 */
public final class LeastLoadPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "leastload";

  static final Comparator<DeviceState> FEWEST_TASKS_FIRST = Comparator.comparingInt(DeviceState::berthTasks);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    return Candidates.sorted(fitting, FEWEST_TASKS_FIRST);
  }
}
