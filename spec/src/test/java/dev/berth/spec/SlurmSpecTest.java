package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.SchedulerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmSpecTest {

  @TempDir Path dir;

  private SchedulerConfig load(String top, String tasks, String configFile, String... overrides)
      throws SpecException {
    return SpecLoader.load(SpecFiles.write(dir, "spec.yaml", top + "\n" + SpecFiles.oneGroup(tasks)),
        configFile == null ? null : SpecFiles.write(dir, "config.yaml", configFile), List.of(overrides)).config();
  }

  @Test
  void topLevelExecutorAndSlurmBlockSetTheSlurmKeys() throws SpecException {
    SchedulerConfig config = load("""
        executor: slurm
        slurm: {partition: gpu, account: lab, qos: high, time: 2h, extra-args: [--constraint=a100],
                workdir-root: /shared/runs, gpu-memory-gres: "gpumem:1MiB"}""", "- {id: a, command: [x]}", null);

    assertThat(config.onCluster()).isTrue();
    assertThat(config.slurm().partition()).isEqualTo("gpu");
    assertThat(config.slurm().account()).isEqualTo("lab");
    assertThat(config.slurm().qos()).isEqualTo("high");
    assertThat(config.slurm().time()).isEqualTo(Duration.ofHours(2));
    assertThat(config.slurm().extraArgs()).containsExactly("--constraint=a100");
    assertThat(config.slurm().workdirRoot()).isEqualTo("/shared/runs");
    assertThat(config.slurm().gpuMemoryGres()).isEqualTo("gpumem:1MiB");
  }

  @Test
  void aSpecWithoutExecutorRunsLocally() throws SpecException {
    assertThat(load("", "- {id: a, command: [x]}", null).onCluster()).isFalse();
  }

  @Test
  void theConfigFileMayHoldTheClusterSettingsAndTheCommandLineChoosesSlurm() throws SpecException {
    SchedulerConfig config = load("", "- {id: a, command: [x]}", "slurm: {partition: gpu}",
        "scheduler.executor=slurm");

    assertThat(config.onCluster()).isTrue();
    assertThat(config.slurm().partition()).isEqualTo("gpu");
  }

  @Test
  void theSpecsSlurmBlockWinsOverTheConfigFile() throws SpecException {
    SchedulerConfig config = load("executor: slurm\nslurm: {partition: a100}", "- {id: a, command: [x]}",
        "slurm: {partition: gpu, account: lab}");

    assertThat(config.slurm().partition()).isEqualTo("a100");
    assertThat(config.slurm().account()).isEqualTo("lab");
  }

  @Test
  void anUnknownExecutorIsRefusedAtItsField() {
    assertThatThrownBy(() -> load("executor: kubernetes", "- {id: a, command: [x]}", null))
        .isInstanceOf(SpecException.class)
        .hasMessageContaining("executor")
        .hasMessageContaining("must be local or slurm");
  }

  @Test
  void anUnknownSlurmKeyIsRefusedWithASuggestion() {
    assertThatThrownBy(() -> load("executor: slurm\nslurm: {partiton: gpu}", "- {id: a, command: [x]}", null))
        .isInstanceOf(SpecException.class)
        .hasMessageContaining("slurm.partiton")
        .hasMessageContaining("partition");
  }

  @Test
  void anUnreadableGpuMemoryGresIsRefusedAtItsField() {
    assertThatThrownBy(() -> load("executor: slurm\nslurm: {gpu-memory-gres: half}", "- {id: a, command: [x]}", null))
        .isInstanceOf(SpecException.class)
        .hasMessageContaining("slurm.gpu-memory-gres")
        .hasMessageContaining("must be none, shard, shard:SIZE or NAME:SIZE");
  }

  @Test
  void extraArgumentsMustBeOptions() {
    assertThatThrownBy(() -> load("executor: slurm\nslurm: {extra-args: [gpu]}", "- {id: a, command: [x]}", null))
        .isInstanceOf(SpecException.class)
        .hasMessageContaining("slurm.extra-args")
        .hasMessageContaining("starting with '-'");
  }

  @Test
  void aTwoStageTaskIsRefusedAsASingleSlurmJob() {
    assertThatThrownBy(() -> load("executor: slurm", "- {id: fl, command: [x], two-stage: true}", null))
        .isInstanceOf(SpecException.class)
        .hasMessageContaining("executor")
        .hasMessageContaining("fl is two-stage")
        .hasMessageContaining("mode: allocation");
  }

  @Test
  void aTwoStageTaskMayRunInsideAnAllocation() throws SpecException {
    SchedulerConfig config = load("executor: slurm\nslurm: {mode: allocation, gres: \"gpu:8\", time: 4h}",
        "- {id: fl, command: [x], two-stage: true}", null);

    assertThat(config.slurm().allocationMode()).isTrue();
    assertThat(config.slurm().gres()).isEqualTo("gpu:8");
  }

  @Test
  void aPinnedGpuIsRefusedOnSlurmBecauseTheClusterPicksTheGpu() {
    assertThatThrownBy(() -> load("executor: slurm", "- {id: a, command: [x], device: \"cuda:1\"}", null))
        .isInstanceOf(SpecException.class)
        .hasMessageContaining("a pins GPUs");
  }
}
