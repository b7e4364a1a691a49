package dev.berth.runtime.gpu;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuDevices;
import dev.berth.os.CommandRunner;
import dev.berth.spi.GpuProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.function.Consumer;
import java.util.function.Function;

/** Turns a {@code --gpus} selection into the probe that serves it. */
public final class GpuProbes {

  private GpuProbes() {}

  /**
   * The probe for a selection.
   *
   * <ul>
   *   <li>{@code auto}: NVML if it loads and initializes; else {@code nvidia-smi} if it runs through
   *       {@code runner} and answers; else a probe with no devices (source {@code none}) whose
   *       {@link GpuProbe#lastError} says why neither was used;
   *   <li>{@code none}: a probe with no devices and nothing to explain;
   *   <li>indices: the {@code auto} probe restricted to those indices, which keep their numbers; it
   *       is read once here, and an index it does not have is an error;
   *   <li>{@code sim:...}: a {@link SimulatedGpuProbe} of the simulated devices.
   * </ul>
   *
   * @throws IllegalArgumentException when selected indices do not exist, naming them and the
   *     indices that do
   */
  public static GpuProbe select(DeviceSelection selection, CommandRunner runner) {
    return select(selection, runner, NvmlGpuProbe::load);
  }

  /** {@link #select(DeviceSelection, CommandRunner)} with another way to load NVML; for tests. */
  static GpuProbe select(
      DeviceSelection selection, CommandRunner runner, Function<Consumer<String>, Optional<? extends GpuProbe>> nvml) {
    return switch (selection.kind()) {
      case NONE -> new NoGpuProbe();
      case SIMULATED -> new SimulatedGpuProbe(selection.simulated());
      case AUTO -> detect(runner, nvml);
      case INDICES -> restricted(detect(runner, nvml), selection);
    };
  }

  private static GpuProbe detect(CommandRunner runner, Function<Consumer<String>, Optional<? extends GpuProbe>> nvml) {
    List<String> problems = new ArrayList<>();
    Optional<? extends GpuProbe> fromNvml = nvml.apply(problems::add);
    if (fromNvml.isPresent()) {
      return fromNvml.get();
    }
    Optional<NvidiaSmiGpuProbe> fromSmi = NvidiaSmiGpuProbe.detect(runner, problems::add);
    if (fromSmi.isPresent()) {
      return fromSmi.get();
    }
    return new NoGpuProbe(problems.isEmpty() ? null : String.join("; ", problems));
  }

  private static GpuProbe restricted(GpuProbe probe, DeviceSelection selection) {
    SortedSet<Integer> wanted = selection.indices();
    List<GpuDevice> found = probe.read();
    SortedSet<Integer> missing = GpuDevices.missing(found, wanted);
    if (!missing.isEmpty()) {
      probe.close();
      String have = found.isEmpty()
          ? "no GPUs were found (source: " + probe.source() + probe.lastError().map(e -> ": " + e).orElse("") + ")"
          : "the GPUs found are " + GpuDevices.describeIndices(found.stream().map(GpuDevice::index).toList())
              + " (source: " + probe.source() + ")";
      throw new IllegalArgumentException(
          "GPU selection " + selection + ": no GPU with index " + GpuDevices.describeIndices(missing) + "; " + have);
    }
    return new RestrictedGpuProbe(probe, wanted);
  }
}
