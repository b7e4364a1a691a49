package dev.berth.core.gpu;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * {@code twobin} ("the power of two choices", after ipyparallel's scheme): two distinct candidates
 * drawn at random from {@link PlacementRequest#random()}; the one running fewer Berth tasks comes
 * first (ties: more free memory, then lower index), the other second, and the remaining candidates
 * follow in {@link LeastLoadPlacement} order. ipyparallel prefers the least recently used of the two; Berth
 * prefers the less loaded, as the task count is what this policy balances.
 */
public final class TwoBinPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "twobin";

  private static final Comparator<DeviceState> LESS_LOADED_FIRST =
      LeastLoadPlacement.FEWEST_TASKS_FIRST.thenComparing(MostFreePlacement.MOST_FREE_FIRST).thenComparing(Candidates.BY_INDEX);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    List<DeviceState> devices = Candidates.byIndex(fitting);
    if (devices.size() < 2) {
      return List.copyOf(devices);
    }
    SplittableRandom random = request.random();
    int first = random.nextInt(devices.size());
    int second = random.nextInt(devices.size() - 1);
    if (second >= first) {
      second++;
    }
    DeviceState a = devices.get(first);
    DeviceState b = devices.get(second);
    List<DeviceState> order = new ArrayList<>();
    if (LESS_LOADED_FIRST.compare(a, b) <= 0) {
      order.add(a);
      order.add(b);
    } else {
      order.add(b);
      order.add(a);
    }
    List<DeviceState> rest = new ArrayList<>(devices);
    rest.remove(a);
    rest.remove(b);
    order.addAll(Candidates.sorted(rest, LeastLoadPlacement.FEWEST_TASKS_FIRST));
    return List.copyOf(order);
  }
}
