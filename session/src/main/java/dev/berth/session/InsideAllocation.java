package dev.berth.session;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.ExecutorKind;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.runtime.exec.LocalSettings;
import dev.berth.spi.HostProbe;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

/**
 * The spec the Berth inside a Slurm allocation runs, and the host it sees: the same tasks with the
 * local executor, packed onto what the allocation holds ({@link AllocationLimits}): the GPUs Slurm
 * gave it ({@code CUDA_VISIBLE_DEVICES} or {@code SLURM_JOB_GPUS}, when the spec leaves {@code gpus}
 * at {@code auto}), its cores ({@code SLURM_CPUS_ON_NODE}) and its memory, not the whole node's.
 * Unless the spec chose otherwise, each task's memory is limited to its reservation
 * ({@code scheduler.enforce-memory}), so a task over it ends alone as out of memory.
 */
final class InsideAllocation {

  private static final SchedulerConfig DEFAULTS = SchedulerConfig.builder().build();

  private InsideAllocation() {}

  /** {@code spec} as the engine inside the allocation runs it, given the job's environment. */
  static RunSpec localSpec(RunSpec spec, UnaryOperator<String> env) {
    return localSpec(spec, AllocationLimits.of(env, OptionalLong.empty()));
  }

  /** {@code spec} as the engine inside an allocation with {@code limits} runs it. */
  static RunSpec localSpec(RunSpec spec, AllocationLimits limits) {
    SchedulerConfig.Builder config = spec.config().toBuilder().set(SchedulerKeys.EXECUTOR, ExecutorKind.LOCAL);
    if (limits.cpus().isPresent() && spec.config().cores() == 0) {
      config.set(SchedulerKeys.CORES, limits.cpus().getAsInt());
    }
    if (limits.memoryBytes().isPresent() && spec.config().remainMemoryBytes() == DEFAULTS.remainMemoryBytes()) {
      // what must stay free for the rest of a shared machine; the allocation's memory is the run's alone
      config.set(SchedulerKeys.REMAIN_MEMORY, 0L);
    }
    RunSpec local = spec.withConfig(config.build());
    LocalSettings executor = LocalKeys.TABLE.of(spec);
    if (executor.enforceMemoryChoice().isEmpty()) {
      // Slurm counts every process of the job against the allocation and kills all of it, each time, for
      // one task over its share; a task's own cgroup limit stops that task alone, as a host OOM grown next time
      local = LocalKeys.TABLE.into(local, executor.toBuilder().enforceMemory(true).build());
    }
    if (spec.gpus().equals(DeviceSelection.DEFAULT) && limits.gpus().isPresent()) {
      local = local.withGpus(limits.gpus().get());
    }
    return local;
  }

  /** {@code node} capped at the allocation's memory, when {@code limits} know it. */
  static HostProbe hostProbe(HostProbe node, AllocationLimits limits) {
    return limits.memoryBytes().isEmpty() ? node
        : new AllocationHostProbe(node, limits.memoryBytes().getAsLong(), dev.berth.protocol.SelfMemory::residentBytes);
  }
}
