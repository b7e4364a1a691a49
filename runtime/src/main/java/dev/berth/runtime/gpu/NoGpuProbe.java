package dev.berth.runtime.gpu;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.spi.GpuProbe;
import java.util.List;
import java.util.Optional;

/**
 * A probe with no devices: {@code --gpus none}, or {@code auto} on a machine where neither NVML nor
 * {@code nvidia-smi} answers; then {@link #lastError} says why each was not used.
 */
public final class NoGpuProbe implements GpuProbe {

  private final String why;

  /** A probe with no devices and nothing to explain ({@code --gpus none}). */
  public NoGpuProbe() {
    this(null);
  }

  /** A probe with no devices because of {@code why} (null: nothing to explain). */
  public NoGpuProbe(String why) {
    this.why = why;
  }

  @Override
  public List<GpuDevice> read() {
    return List.of();
  }

  @Override
  public String source() {
    return NONE;
  }

  @Override
  public Optional<String> lastError() {
    return Optional.ofNullable(why);
  }
}
