package dev.berth.core.gpu;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code spread} (the default): the device running the fewest Berth tasks first, ties by best fit
 * (least free memory that still fits), then by index. Training is compute-bound: a second task on a
 * busy GPU slows both while an idle GPU waits, so tasks go where the fewest run; among equally busy
 * devices the tightest fit keeps large free blocks whole.
 *
 * <p>Spreading alone would fragment memory: small tasks on every device can leave none with room for
 * a large task that waits behind them. So when some device has room now for the largest GPU memory
 * another task waits for ({@link PlacementRequest#keepRoomBytes}), the devices that keep such room
 * after this placement come first; best fit, which stacks small tasks, would have kept it too.
 */
public final class SpreadPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "spread";

  private static final Comparator<DeviceState> FEWEST_TASKS_THEN_BEST_FIT =
      LeastLoadPlacement.FEWEST_TASKS_FIRST.thenComparingLong(DeviceState::freeMemoryBytes);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    List<DeviceState> spread = Candidates.sorted(fitting, FEWEST_TASKS_THEN_BEST_FIT);
    long room = request.keepRoomBytes();
    if (room == 0 || spread.stream().noneMatch(d -> d.freeMemoryBytes() >= room)) {
      return spread;
    }
    List<DeviceState> keeping = new ArrayList<>();
    List<DeviceState> rest = new ArrayList<>();
    for (DeviceState d : spread) {
      (keepsRoom(spread, d, request.gpuMemoryBytes(), room) ? keeping : rest).add(d);
    }
    keeping.addAll(rest);
    return List.copyOf(keeping);
  }

  /** Whether some device still has {@code room} free once {@code bytes} are placed on {@code chosen}. */
  private static boolean keepsRoom(List<DeviceState> devices, DeviceState chosen, long bytes, long room) {
    for (DeviceState d : devices) {
      long free = d == chosen ? d.freeMemoryBytes() - bytes : d.freeMemoryBytes();
      if (free >= room) {
        return true;
      }
    }
    return false;
  }
}
