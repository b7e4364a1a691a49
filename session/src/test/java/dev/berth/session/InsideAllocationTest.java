package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.ExecutorKind;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.runtime.exec.LocalSettings;
import dev.berth.testkit.TaskSpecs;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class InsideAllocationTest {

  private static RunSpec onSlurm(String gpus) {
    return TaskSpecs.run("r").group("g", TaskSpecs.task("a").build())
        .config(SchedulerConfig.builder()
        .set(SchedulerKeys.EXECUTOR, ExecutorKind.SLURM).build()).build().withGpus(gpus);
  }

  @Test
  void theBerthInsideRunsTheTasksAsLocalProcesses() {
    RunSpec inside = InsideAllocation.localSpec(onSlurm("auto"), Map.<String, String>of()::get);

    assertThat(inside.config().onCluster()).isFalse();
    assertThat(inside.tasks()).isEqualTo(onSlurm("auto").tasks());
  }

  @Test
  void itUsesOnlyTheCoresAndGpusSlurmGaveTheAllocation() {
    RunSpec inside = InsideAllocation.localSpec(onSlurm("auto"),
        Map.of("SLURM_CPUS_ON_NODE", "16", "CUDA_VISIBLE_DEVICES", "2,3")::get);

    assertThat(inside.config().cores()).isEqualTo(16);
    assertThat(inside.gpus()).isEqualTo("2,3");
  }

  @Test
  void anExplicitGpuSelectionInTheSpecIsKept() {
    RunSpec inside = InsideAllocation.localSpec(onSlurm("sim:2x24GiB"), Map.of("CUDA_VISIBLE_DEVICES", "0,1")::get);

    assertThat(inside.gpus()).isEqualTo("sim:2x24GiB");
  }

  @Test
  void inAnAllocationOfKnownMemoryTheDefaultMemoryToLeaveFreeDoesNotApplyButOneTheSpecSetsDoes() {
    AllocationLimits oneGib = AllocationLimits.of(Map.of("SLURM_MEM_PER_NODE", "1024")::get, OptionalLong.empty());
    RunSpec kept = onSlurm("auto").withConfig(onSlurm("auto").config().toBuilder()
        .set(SchedulerKeys.REMAIN_MEMORY, 1L << 20).build());

    assertThat(InsideAllocation.localSpec(onSlurm("auto"), oneGib).config().remainMemoryBytes()).isZero();
    assertThat(InsideAllocation.localSpec(kept, oneGib).config().remainMemoryBytes()).isEqualTo(1L << 20);
    assertThat(InsideAllocation.localSpec(onSlurm("auto"), Map.<String, String>of()::get).config().remainMemoryBytes())
        .isEqualTo(SchedulerConfig.builder().build().remainMemoryBytes());
  }

  @Test
  void theBerthInsideLimitsEachTasksMemorySoATaskOverItsOwnIsKilledAloneUnlessTheSpecTurnedItOff() {
    RunSpec off = LocalKeys.TABLE.into(onSlurm("auto"), LocalSettings.builder().enforceMemory(false).build());
    Map<String, String> job = Map.of("SLURM_MEM_PER_NODE", "1024");

    assertThat(LocalKeys.TABLE.of(InsideAllocation.localSpec(onSlurm("auto"), job::get)).enforceMemory()).isTrue();
    assertThat(LocalKeys.TABLE.of(InsideAllocation.localSpec(off, job::get)).enforceMemory()).isFalse();
    assertThat(LocalKeys.TABLE.of(onSlurm("auto")).enforceMemory()).as("outside an allocation").isFalse();
  }
}
