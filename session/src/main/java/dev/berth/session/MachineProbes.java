package dev.berth.session;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.os.ProcessCommandRunner;
import dev.berth.runtime.contain.TaskContainment;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.runtime.gpu.GpuProbes;
import dev.berth.runtime.probe.OshiHostProbe;
import dev.berth.spi.GpuProbe;
import java.time.Instant;
import java.util.TreeMap;

/**
 * This machine's probes, made as a run makes them, for the commands that only look at the machine
 * ({@code berth run --dry-run}, {@code berth devices}): what they show is what a run would see.
 */
public final class MachineProbes {

  private MachineProbes() {}

  /**
   * The probe of the GPUs {@code selection} chooses: NVML, nvidia-smi, simulated devices or none.
   *
   * @throws IllegalArgumentException when the selection cannot be probed here
   */
  public static GpuProbe gpus(DeviceSelection selection) {
    return GpuProbes.select(selection, new ProcessCommandRunner());
  }

  /** This host's CPUs and memory at {@code now}, with no task of a run counted. */
  public static HostSnapshot host(Instant now) {
    return new OshiHostProbe().read(now, new TreeMap<>());
  }

  /** How tasks started here would be contained (cgroups, or what is missing for them). */
  public static String taskContainment() {
    return TaskContainment.describeAvailable();
  }

  /** How tasks started here would be spawned. */
  public static String taskStart() {
    return LocalProcessExecutor.describeSpawning();
  }
}
