package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskKeys;
import dev.berth.slurm.SlurmConfig;
import dev.berth.slurm.SlurmKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmSpecTest {

  @TempDir Path dir;

  private RunSpec load(String top, String tasks, String configFile, String... overrides) throws SpecException {
    return SpecLoader.load(SpecFiles.write(dir, "spec.yaml", top + "\n" + SpecFiles.oneGroup(tasks)),
        configFile == null ? null : SpecFiles.write(dir, "config.yaml", configFile), List.of(overrides),
        SpecFiles.ADAPTERS);
  }

  private static SlurmConfig slurm(RunSpec run) {
    return SlurmKeys.TABLE.of(run);
  }

  @Test
  void topLevelExecutorAndSlurmBlockSetTheSlurmKeys() throws SpecException {
    RunSpec run = load("""
        executor: slurm
        slurm: {partition: gpu, account: lab, qos: high, time: 2h, extra-args: [--constraint=a100],
                workdir-root: /shared/runs, gpu-memory-gres: "gpumem:1MiB"}""", "- {id: a, command: [x]}", null);

    assertThat(run.config().onCluster()).isTrue();
    assertThat(slurm(run).partition()).isEqualTo("gpu");
    assertThat(slurm(run).account()).isEqualTo("lab");
    assertThat(slurm(run).qos()).isEqualTo("high");
    assertThat(slurm(run).time()).isEqualTo(Duration.ofHours(2));
    assertThat(slurm(run).extraArgs()).containsExactly("--constraint=a100");
    assertThat(slurm(run).workdirRoot()).isEqualTo("/shared/runs");
    assertThat(slurm(run).gpuMemoryGres()).isEqualTo("gpumem:1MiB");
  }

  @Test
  void aSpecWithoutExecutorRunsLocally() throws SpecException {
    assertThat(load("", "- {id: a, command: [x]}", null).config().onCluster()).isFalse();
  }

  @Test
  void theConfigFileMayHoldTheClusterSettingsAndTheCommandLineChoosesSlurm() throws SpecException {
    RunSpec run = load("", "- {id: a, command: [x]}", "slurm: {partition: gpu}",
        "scheduler.executor=slurm");

    assertThat(run.config().onCluster()).isTrue();
    assertThat(slurm(run).partition()).isEqualTo("gpu");
  }

  @Test
  void theSpecsSlurmBlockWinsOverTheConfigFile() throws SpecException {
    RunSpec run = load("executor: slurm\nslurm: {partition: a100}", "- {id: a, command: [x]}",
        "slurm: {partition: gpu, account: lab}");

    assertThat(slurm(run).partition()).isEqualTo("a100");
    assertThat(slurm(run).account()).isEqualTo("lab");
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
    RunSpec run = load("executor: slurm\nslurm: {mode: allocation, gres: \"gpu:8\", time: 4h}",
        "- {id: fl, command: [x], two-stage: true}", null);

    assertThat(slurm(run).allocationMode()).isTrue();
    assertThat(slurm(run).gres()).isEqualTo("gpu:8");
  }

  @Test
  void aPinnedGpuIsRefusedOnSlurmBecauseTheClusterPicksTheGpu() {
    assertThatThrownBy(() -> load("executor: slurm", "- {id: a, command: [x], device: \"cuda:1\"}", null))
        .isInstanceOf(SpecException.class)
        .hasMessageContaining("a pins GPUs");
  }
  private RunSpec loadGroups(String spec) throws SpecException {
    return SpecLoader.load(SpecFiles.write(dir, "spec.yaml", spec), null, List.of(), SpecFiles.ADAPTERS);
  }

  @Test
  void aGroupsMaxJobsIsReadWithTheRunsRuleAndCarriedOnEachOfItsTasksButAskedOfNoJob() throws SpecException {
    RunSpec run = loadGroups("""
        name: run
        executor: slurm
        groups:
          - name: sweep
            slurm: {max-jobs: 3, partition: gpu}
            tasks: [{id: a, command: [x]}, {id: b, command: [x], slurm: {qos: long}}]
        """);

    assertThat(run.tasks()).allSatisfy(t ->
        assertThat(SchedulerKeys.groupMaxJobs(t.get(TaskKeys.SLURM))).isEqualTo(3));
    assertThat(SlurmKeys.forTask(slurm(run), run.tasks().get(1)).partition()).isEqualTo("gpu");
    assertThat(SlurmKeys.forTask(slurm(run), run.tasks().get(1)).qos()).isEqualTo("long");
  }

  @Test
  void anAllocationRefusesAGroupsMaxJobsAsAnyGroupSlurmOption() {
    assertThatThrownBy(() -> loadGroups("""
        name: run
        executor: slurm
        slurm: {mode: allocation}
        groups:
          - name: sweep
            slurm: {max-jobs: 3}
            tasks: [{id: a, command: [x]}]
        """))
        .isInstanceOf(SpecException.class)
        .hasMessageContaining("slurm.mode")
        .hasMessageContaining("only mode jobs submits with");
  }
}
