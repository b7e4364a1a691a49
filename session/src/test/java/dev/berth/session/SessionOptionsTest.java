package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.slurm.SlurmKeys;
import dev.berth.spi.JobsOnExit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionOptionsTest {

  private static RunSpec run() {
    RunSpec run = new RunSpec("r", "out", SchedulerConfig.DEFAULTS,
        List.of(new GroupSpec("g", List.of(TaskSpec.builder("a", "g").command("true").build()))));
    return SlurmKeys.TABLE.into(run, SlurmKeys.TABLE.read(Map.of("slurm.on-exit", "cancel", "slurm.partition", "gpu")));
  }

  @Test
  void onExitOverridesTheRunsSlurmOnExitAndLeavesItsOtherSlurmSettings() {
    RunSpec adjusted = SessionOptions.onExit(JobsOnExit.LEAVE).apply(run());

    assertThat(SlurmKeys.TABLE.of(adjusted).onExit()).isEqualTo(JobsOnExit.LEAVE);
    assertThat(SlurmKeys.TABLE.of(adjusted).partition()).isEqualTo("gpu");
    assertThat(SlurmKeys.TABLE.of(run()).onExit()).isEqualTo(JobsOnExit.CANCEL);
  }
}
