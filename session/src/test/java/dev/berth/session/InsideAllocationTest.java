package dev.berth.session;

import dev.berth.core.model.ExecutorKind;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.testkit.TaskSpecs;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InsideAllocationTest {

  private static RunSpec onSlurm(String gpus) {
    return TaskSpecs.run("r").group("g", TaskSpecs.task("a").build())
        .config(SchedulerConfig.builder().executor(ExecutorKind.SLURM).build()).build().withGpus(gpus);
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
}
