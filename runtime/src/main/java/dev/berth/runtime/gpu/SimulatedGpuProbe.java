package dev.berth.runtime.gpu;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuDevices;
import dev.berth.spi.GpuProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Serves simulated devices ({@code --gpus sim:...}): each device's free memory is its total minus
 * the memory its owner says is in use ({@link #setUsed}), 0 at first. Thread-safe.
 */
public final class SimulatedGpuProbe implements GpuProbe {

  private final Map<Integer, GpuDevice> devices = new TreeMap<>();
  private final Map<Integer, Long> used = new TreeMap<>();

  /** A probe of these devices (typically from {@link dev.berth.core.gpu.SimulatedDevices#parse}). */
  public SimulatedGpuProbe(List<GpuDevice> devices) {
    for (GpuDevice d : GpuDevices.sortedByIndex(devices)) {
      this.devices.put(d.index(), d);
      this.used.put(d.index(), 0L);
    }
  }

  @Override
  public synchronized List<GpuDevice> read() {
    List<GpuDevice> reading = new ArrayList<>();
    for (GpuDevice d : devices.values()) {
      long inUse = Math.min(used.get(d.index()), d.totalMemoryBytes());
      reading.add(d.withMemory(inUse, d.totalMemoryBytes() - inUse));
    }
    return List.copyOf(reading);
  }

  /**
   * Sets the memory in use on a device (by the engine, from its tasks' reservations, or by a test);
   * more than the total reads as a full device.
   *
   * @throws IllegalArgumentException for an index no simulated device has, or negative bytes
   */
  public synchronized SimulatedGpuProbe setUsed(int index, long bytes) {
    if (!devices.containsKey(index)) {
      throw new IllegalArgumentException(
          "no simulated GPU with index " + index + "; the simulated GPUs are "
              + GpuDevices.describeIndices(devices.keySet()));
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("used memory must be >= 0 but was " + bytes);
    }
    used.put(index, bytes);
    return this;
  }

  @Override
  public String source() {
    return SIMULATED;
  }
}
