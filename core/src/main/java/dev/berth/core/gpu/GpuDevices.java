package dev.berth.core.gpu;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Pure helpers over device lists: ordering, and restricting a reading to the selected indices. */
public final class GpuDevices {

  private GpuDevices() {}

  /**
   * The devices sorted by index.
   *
   * @throws IllegalArgumentException when two devices share an index
   */
  public static List<GpuDevice> sortedByIndex(Collection<GpuDevice> devices) {
    List<GpuDevice> sorted = new ArrayList<>(devices);
    sorted.sort(Comparator.comparingInt(GpuDevice::index));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).index() == sorted.get(i - 1).index()) {
        throw new IllegalArgumentException("two GPUs have index " + sorted.get(i).index());
      }
    }
    return List.copyOf(sorted);
  }

  /**
   * The devices whose index is among {@code indices}, in index order. Indices keep their meaning:
   * restricting to {@code 1,3} yields {@code cuda:1} and {@code cuda:3}.
   */
  public static List<GpuDevice> restrict(Collection<GpuDevice> devices, SortedSet<Integer> indices) {
    return sortedByIndex(devices).stream().filter(d -> indices.contains(d.index())).toList();
  }

  /**
   * The indices in {@code wanted} that no device has, in order; empty when every wanted index
   * exists.
   */
  public static SortedSet<Integer> missing(Collection<GpuDevice> devices, SortedSet<Integer> wanted) {
    SortedSet<Integer> missing = new TreeSet<>(wanted);
    devices.forEach(d -> missing.remove(d.index()));
    return missing;
  }

  /** The indices as the user writes them, e.g. {@code 0, 2, 3}; {@code none} when empty. */
  public static String describeIndices(Collection<Integer> indices) {
    if (indices.isEmpty()) {
      return "none";
    }
    return new TreeSet<>(indices).stream().map(String::valueOf).collect(Collectors.joining(", "));
  }

  /**
   * A device as every Berth run on the host names it in the host ledger: a real GPU by its UUID; a
   * simulated one by the selection that made it and its index, so runs given the same {@code sim:}
   * selection share one simulated set.
   *
   * @param selection the run's GPU selection as written, e.g. {@code sim:24GiB}
   */
  public static String sharedKey(String selection, GpuDevice device) {
    return device.simulated() ? selection + "#" + device.index() : device.uuid();
  }
}
