package dev.berth.core.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * {@code weighted}: a random order in which each next device is drawn with probability proportional
 * to its free memory among the devices not drawn yet (weighted sampling without replacement, from
 * {@link PlacementRequest#random()}). Devices with no free memory come last, in index order.
 *
 * <p>ipyparallel's {@code weighted} scheme weighs by inverse load (queued tasks); Berth weighs by
 * free GPU memory instead, because memory is what decides whether a GPU task can run, and a device
 * shared with other users can be full while running no Berth task at all.
 */
public final class WeightedPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "weighted";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    List<DeviceState> remaining = Candidates.byIndex(fitting);
    List<DeviceState> empty = new ArrayList<>();
    remaining.removeIf(d -> d.freeMemoryBytes() == 0 && empty.add(d));
    SplittableRandom random = request.random();
    List<DeviceState> order = new ArrayList<>(fitting.size());
    while (!remaining.isEmpty()) {
      double total = 0;
      for (DeviceState d : remaining) {
        total += d.freeMemoryBytes();
      }
      double point = random.nextDouble() * total;
      int chosen = remaining.size() - 1;
      double cumulative = 0;
      for (int i = 0; i < remaining.size(); i++) {
        cumulative += remaining.get(i).freeMemoryBytes();
        if (point < cumulative) {
          chosen = i;
          break;
        }
      }
      order.add(remaining.remove(chosen));
    }
    order.addAll(empty);
    return List.copyOf(order);
  }
}
