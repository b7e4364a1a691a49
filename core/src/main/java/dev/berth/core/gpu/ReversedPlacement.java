package dev.berth.core.gpu;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Another policy's answer back to front, named {@code <name>-reverse} (fedflow's
 * {@code gpu-priority} orders with {@code reverse: true}): {@code pci-reverse} is the highest index
 * first, {@code total-mem-reverse} the smallest card first, {@code remain-mem-reverse} the least free
 * memory first. Ties come out in descending index order, exactly reversed. Devices the inner
 * policy drops stay dropped.
 */
public final class ReversedPlacement implements PlacementPolicy {

  /** What a reversed policy's name ends with. */
  public static final String SUFFIX = "-reverse";

  private final PlacementPolicy inner;

  /** The reverse of {@code inner}. */
  public ReversedPlacement(PlacementPolicy inner) {
    this.inner = Objects.requireNonNull(inner, "inner");
  }

  /** The policy whose answer is reversed. */
  public PlacementPolicy inner() {
    return inner;
  }

  @Override
  public String name() {
    return inner.name() + SUFFIX;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    List<DeviceState> order = new ArrayList<>(inner.order(fitting, request));
    Collections.reverse(order);
    return List.copyOf(order);
  }
}
