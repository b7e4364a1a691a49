package dev.berth.spi;

import dev.berth.core.gpu.GpuDevice;
import java.util.List;
import java.util.Optional;

/**
 * Reads the GPUs: memory, utilization and compute processes of each device.
 *
 * <p>Implementations never throw on a failure that may pass (a driver hiccup, a timed-out
 * {@code nvidia-smi}): {@link #read} then returns the last good reading, or an empty list before the
 * first, and {@link #lastError} says what went wrong. Implementations are thread-safe.
 */
public interface GpuProbe extends AutoCloseable {

  /** {@link #source()} of a probe that reads the NVIDIA Management Library directly. */
  String NVML = "nvml";
  /** {@link #source()} of a probe that runs {@code nvidia-smi}. */
  String NVIDIA_SMI = "nvidia-smi";
  /** {@link #source()} of a probe of simulated devices. */
  String SIMULATED = "simulated";
  /** {@link #source()} of a probe that has no devices. */
  String NONE = "none";

  /** Takes a reading: the devices sorted by index, each with its compute processes. */
  List<GpuDevice> read();

  /** Where readings come from: {@code nvml}, {@code nvidia-smi}, {@code simulated} or {@code none}. */
  String source();

  /**
   * Why the latest reading failed or is incomplete (the last good reading was served instead), or
   * for a probe with no devices, why none were found; empty when the latest reading was complete.
   */
  default Optional<String> lastError() {
    return Optional.empty();
  }

  /** Releases what the probe holds (NVML's handle); reading afterwards is undefined. Never throws. */
  @Override
  default void close() {}
}
