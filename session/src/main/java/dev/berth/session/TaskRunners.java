package dev.berth.session;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.RunSpec;
import dev.berth.os.ProcessCommandRunner;
import dev.berth.runtime.contain.TaskContainment;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.runtime.pool.WorkerPoolExecutor;
import dev.berth.slurm.SlurmExecutor;
import dev.berth.slurm.SlurmKeys;
import dev.berth.spi.Executor;
import dev.berth.spi.GpuProbe;

/**
 * What runs a spec's tasks, as its {@code scheduler.executor} says: processes on this machine, or
 * batch jobs on a Slurm cluster, whose GPUs Berth neither probes nor chooses.
 */
public final class TaskRunners {

  private TaskRunners() {}

  /** The executor for {@code spec}'s tasks. */
  static Executor executor(RunSpec spec) {
    if (!spec.config().onCluster()) {
      return new LocalProcessExecutor(TaskContainment.detect(), spec.config().interval(), LocalKeys.TABLE.of(spec),
          AdapterTables.secretVariables(spec));
    }
    return SlurmExecutor.forRun(spec, new ProcessCommandRunner(AdapterTables.secretVariables(spec)));
  }

  /** {@code processes}, with the call tasks of {@code spec}'s pools run in warm engines instead (docs/pools.md). */
  static WorkerPoolExecutor withPools(RunSpec spec, Executor processes) {
    return new WorkerPoolExecutor(processes, AdapterTables.secretVariables(spec));
  }

  /** The GPUs Berth places tasks on: none on a cluster, which places GPU tasks itself. */
  static GpuProbe gpuProbe(RunSpec spec) {
    String selection = spec.config().onCluster() ? "none" : spec.gpus();
    return MachineProbes.gpus(DeviceSelection.parse(selection));
  }

  /** {@code layout} with the task folders where a run on Slurm keeps them ({@code slurm.workdir-root}). */
  public static RunLayout layout(RunSpec spec, RunLayout layout) {
    if (!spec.config().onCluster()) {
      return layout;
    }
    return layout.withTasksRoot(SlurmKeys.TABLE.of(spec).taskFolderRoot(layout.runDir(), spec.name()));
  }
}
