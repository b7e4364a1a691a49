package dev.berth.runtime.pool;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.spi.GpuProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * A GPU probe whose readings count what live engines hold on their devices between calls (a pool's
 * {@code gpu-memory}) as used: each device's free memory is the wrapped probe's, less each engine's
 * hold beyond what the reading already shows its process using. Closing it leaves the wrapped probe
 * to its owner.
 */
public final class WorkerGpuHoldings implements GpuProbe {

  private final GpuProbe probe;
  private final ToLongFunction<GpuDevice> heldBytes;

  /** Wraps {@code probe}; {@code heldBytes} says what live engines hold on a device beyond its reading. */
  public WorkerGpuHoldings(GpuProbe probe, ToLongFunction<GpuDevice> heldBytes) {
    this.probe = probe;
    this.heldBytes = heldBytes;
  }

  @Override
  public List<GpuDevice> read() {
    List<GpuDevice> devices = new ArrayList<>();
    for (GpuDevice d : probe.read()) {
      long held = Math.min(heldBytes.applyAsLong(d), d.freeMemoryBytes());
      devices.add(held <= 0 ? d : new GpuDevice(d.index(), d.uuid(), d.name(), d.totalMemoryBytes(),
          d.usedMemoryBytes() + held, d.freeMemoryBytes() - held, d.utilization(), d.simulated(), d.processes()));
    }
    return devices;
  }

  @Override
  public String source() {
    return probe.source();
  }

  @Override
  public Optional<String> lastError() {
    return probe.lastError();
  }
}
