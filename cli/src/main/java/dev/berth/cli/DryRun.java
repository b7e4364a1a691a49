package dev.berth.cli;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.resources.GpuReading;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.Feasibility;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Scheduler;
import dev.berth.session.MachineProbes;
import dev.berth.spi.GpuProbe;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code berth run --dry-run}: the plan, and which tasks could never be placed on this host with the
 * GPUs chosen, by the core's own checks ({@link Feasibility}); starts nothing.
 */
final class DryRun {

  private DryRun() {}

  static void print(RunSpec spec, Path runDir, PrintStream out) {
    PlanPrinter.print(spec, runDir, out);
    if (spec.config().onCluster()) {
      out.println("the cluster places the tasks: see the sbatch options above");
    } else {
      printNeverPlaced(spec, true, out);
    }
    out.println("dry run: nothing started");
  }

  /**
   * Prints which tasks could never be placed on this host, and returns how many. With {@code
   * everyTaskFits} false, nothing is printed when every task fits.
   */
  static int printNeverPlaced(RunSpec spec, boolean everyTaskFits, PrintStream out) {
    Instant now = Instant.now();
    HostSnapshot host = MachineProbes.host(now);
    List<GpuDevice> gpus;
    try (GpuProbe probe = MachineProbes.gpus(DeviceSelection.parse(spec.gpus()))) {
      gpus = probe.read();
    }
    Map<TaskId, String> never = Feasibility.neverPlaced(
        new Scheduler(spec.config()), new RunState(spec), host.withGpus(GpuReading.of(gpus)), now);
    if (!never.isEmpty() || everyTaskFits) {
      PlanPrinter.printNeverPlaced(never, "this host (" + host.logicalCpus() + " CPUs, gpus: " + spec.gpus()
          + ", " + gpus.size() + " GPU" + (gpus.size() == 1 ? "" : "s") + ")", out);
    }
    return never.size();
  }
}
