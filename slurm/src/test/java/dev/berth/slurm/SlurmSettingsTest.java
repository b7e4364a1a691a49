package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.spi.JobsOnExit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SlurmSettingsTest {

  private static final long GIB = 1L << 30;

  @Test
  void theRunsSlurmConfigBecomesTheSettings() {
    SlurmConfig config = SlurmConfig.builder().partition("gpu").account("proj").qos("high")
        .time(Duration.ofMinutes(90).plusSeconds(30)).extraArgs(List.of("--constraint=a100")).workdirRoot("/shared/runs")
        .gpuMemoryGres("shard:10GiB").arrays(false).onExit(JobsOnExit.CANCEL).pollMax(Duration.ofSeconds(2)).build();

    SlurmSettings settings = SlurmSettings.from(config, 4);

    assertThat(settings.partition()).contains("gpu");
    assertThat(settings.account()).contains("proj");
    assertThat(settings.qos()).contains("high");
    assertThat(settings.time()).contains("91");
    assertThat(settings.extraArgs()).containsExactly("--constraint=a100");
    assertThat(settings.workdirRoot()).contains(Path.of("/shared/runs"));
    assertThat(settings.gpuMemoryGres()).isEqualTo(GpuMemoryGres.count("shard", 10 * GIB));
    assertThat(settings.pollMax()).isEqualTo(Duration.ofSeconds(2));
    assertThat(settings.arrays()).isFalse();
    assertThat(settings.arrayMaxRunning()).isEqualTo(4);
  }

  @Test
  void theConfigsDefaultsAskForNothingAndLimitNoArray() {
    SlurmSettings settings = SlurmSettings.from(
        new RunSpec("r", "w", SchedulerConfig.DEFAULTS, List.of(new GroupSpec("g", List.of(TaskSpec.builder("a", "g")
            .command("x").build())))));

    assertThat(List.of(settings.partition(), settings.account(), settings.qos(), settings.time()))
        .containsOnly(Optional.empty());
    assertThat(settings.workdirRoot()).isEmpty();
    assertThat(settings.gpuMemoryGres()).isEqualTo(GpuMemoryGres.NONE);
    assertThat(settings.arrays()).isTrue();
    assertThat(settings.arrayMaxRunning()).isEqualTo(SchedulerConfig.DEFAULTS.maxProcess());
    assertThat(settings.pollInitial()).isEqualTo(SlurmSettings.defaults().pollInitial());
  }

  @Test
  void aPollMaxBelowTheFirstWaitLowersTheFirstWait() {
    SlurmConfig config = withPollMax(Duration.ofMillis(50));

    assertThat(SlurmSettings.from(config, 0)).extracting(SlurmSettings::pollInitial, SlurmSettings::pollMax)
        .containsExactly(Duration.ofMillis(50), Duration.ofMillis(50));
  }

  @Test
  void anUnreadableGpuMemoryGresNamesTheAcceptedForms() {
    // Refused with the configuration itself, so that no settings are ever built from it.
    assertThatThrownBy(() -> SlurmConfig.builder().gpuMemoryGres("half-a-gpu").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be none, shard, shard:SIZE or NAME:SIZE")
        .hasRootCauseMessage("'half-a-gpu' is not a GPU-memory GRES; use none, shard, or NAME:SIZE such as gpumem:1MiB");
  }

  @Test
  void theBuilderKeepsTheArraySettingsAndRejectsANegativeLimit() {
    SlurmSettings settings = SlurmSettings.builder().arrays(false).arrayMaxRunning(3).build();

    assertThat(settings.toBuilder().build()).isEqualTo(settings);
    assertThat(SlurmSettings.defaults()).extracting(SlurmSettings::arrays, SlurmSettings::arrayMaxRunning)
        .containsExactly(true, 0);
    assertThatThrownBy(() -> SlurmSettings.builder().arrayMaxRunning(-1).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static SlurmConfig withPollMax(Duration pollMax) {
    return SlurmConfig.DEFAULTS.toBuilder().pollMax(pollMax).build();
  }
}
