package dev.berth.core.gpu;

import java.util.List;

/**
 * {@code pci} (fedflow's {@code gpu-priority: pci}): the lowest device index first. NVML and
 * nvidia-smi number devices in PCI bus order, so this is bus order. Same order as
 * {@link FirstFitPlacement}; the name follows fedflow's configuration.
 */
public final class PciPlacement implements PlacementPolicy {

  /** The policy's name. */
  public static final String NAME = "pci";

  private final FirstFitPlacement sameOrder = new FirstFitPlacement();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<DeviceState> order(List<DeviceState> fitting, PlacementRequest request) {
    return sameOrder.order(fitting, request);
  }
}
