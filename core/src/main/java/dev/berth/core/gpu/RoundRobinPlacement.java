package dev.berth.core.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code round-robin} (FLGo's Basic scheduler): the candidates in index order, rotated so that
 * placement number {@code sequence} starts at position {@code sequence % n} among the {@code n}
 * candidates. The first placement of a run ({@code sequence} 0) starts at the lowest index; FLGo
 * advanced its pointer before using it, so its first task went to the second device.
 *
 * <p>Positions count among the candidates, so a device the task does not fit on is skipped rather
 * than making the rotation stall.
 */
public final class RoundRobinPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "round-robin";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    List<DeviceState> byIndex = Candidates.byIndex(fitting);
    int n = byIndex.size();
    if (n == 0) {
      return List.of();
    }
    int start = (int) Math.floorMod(request.sequence(), (long) n);
    List<DeviceState> rotated = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      rotated.add(byIndex.get((start + i) % n));
    }
    return List.copyOf(rotated);
  }
}
