package dev.berth.session;

import dev.berth.core.model.ExecutorKind;
import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import java.util.function.UnaryOperator;

/**
 * The spec the Berth inside a Slurm allocation runs: the same tasks with the local executor, packed
 * onto what the allocation holds: the GPUs Slurm gave it ({@code CUDA_VISIBLE_DEVICES}, when the
 * spec leaves {@code gpus} at {@code auto}) and its cores ({@code SLURM_CPUS_ON_NODE}), not the
 * whole node's.
 */
final class InsideAllocation {

  private InsideAllocation() {}

  /** {@code spec} as the engine inside the allocation runs it, given the job's environment. */
  static RunSpec localSpec(RunSpec spec, UnaryOperator<String> env) {
    SchedulerConfig.Builder config = spec.config().toBuilder().executor(ExecutorKind.LOCAL);
    String cpus = env.apply("SLURM_CPUS_ON_NODE");
    if (cpus != null && cpus.matches("[0-9]+") && spec.config().cores() == 0) {
      config.cores(Integer.parseInt(cpus));
    }
    RunSpec local = spec.withConfig(config.build());
    String visible = env.apply("CUDA_VISIBLE_DEVICES");
    if (spec.gpus().equals(DeviceSelection.DEFAULT) && visible != null
        && visible.matches("[0-9]+(,[0-9]+)*")) {
      local = local.withGpus(visible);
    }
    return local;
  }
}
