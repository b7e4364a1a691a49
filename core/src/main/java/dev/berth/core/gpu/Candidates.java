package dev.berth.core.gpu;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Helpers the built-in policies share: a canonical copy of the candidates and stable sorts. */
final class Candidates {

  /** Index order, the tie-breaker of every built-in policy. */
  static final Comparator<DeviceState> BY_INDEX = Comparator.comparingInt(DeviceState::index);

  private Candidates() {}

  /**
   * A mutable copy of the candidates in index order, so that every policy answers the same for the
   * same set of devices whatever the list order.
   *
   * @throws IllegalArgumentException when two candidates share an index
   */
  static List<DeviceState> byIndex(List<DeviceState> fitting) {
    List<DeviceState> copy = new ArrayList<>(fitting);
    copy.sort(BY_INDEX);
    for (int i = 1; i < copy.size(); i++) {
      if (copy.get(i).index() == copy.get(i - 1).index()) {
        throw new IllegalArgumentException("two candidate devices have index " + copy.get(i).index());
      }
    }
    return copy;
  }

  /** The candidates sorted by {@code order}, ties by index. */
  static List<DeviceState> sorted(List<DeviceState> fitting, Comparator<DeviceState> order) {
    List<DeviceState> copy = byIndex(fitting);
    copy.sort(order.thenComparing(BY_INDEX));
    return List.copyOf(copy);
  }
}
