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

class SlurmConfigTest {

  private static final long GIB = 1L << 30;
  private static final Path RUN = Path.of("/shared/runs/r");

  @Test
  void theRunsSlurmConfigIsWhatSbatchIsAskedFor() {
    SlurmConfig config = SlurmConfig.builder().set(SlurmKeys.PARTITION, "gpu").set(SlurmKeys.ACCOUNT, "proj")
        .set(SlurmKeys.QOS, "high")
        .set(SlurmKeys.TIME, Duration.ofMinutes(90).plusSeconds(30))
        .set(SlurmKeys.EXTRA_ARGS, List.of("--constraint=a100")).set(SlurmKeys.WORKDIR_ROOT, "/shared/runs")
        .set(SlurmKeys.GPU_MEMORY_GRES, "shard:10GiB").set(SlurmKeys.ARRAYS, false)
        .set(SlurmKeys.ON_EXIT, JobsOnExit.CANCEL).set(SlurmKeys.POLL_MAX, Duration.ofSeconds(2)).build();

    SlurmTuning tuning = SlurmTuning.forRun(config, 4);

    assertThat(sbatch(config)).contains("--partition=gpu", "--account=proj", "--qos=high", "--time=91",
        "--constraint=a100");
    assertThat(config.taskFolderRoot(RUN, "r")).isEqualTo(Path.of("/shared/runs/r"));
    assertThat(config.shareGres()).isEqualTo(GpuMemoryGres.count("shard", 10 * GIB));
    assertThat(config.pollMax()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.arrays()).isFalse();
    assertThat(tuning.arrayMaxRunning()).isEqualTo(4);
  }

  @Test
  void aGroupsOptionsGoOverTheRunsKeyByKeyAndOnlyTheKeysAGroupMaySet() {
    SlurmConfig run = SlurmConfig.builder().set(SlurmKeys.PARTITION, "cpu").set(SlurmKeys.ACCOUNT, "lab").build();

    SlurmConfig group = SlurmKeys.TABLE.over(run, java.util.Map.of("partition", "gpu", "time", "90m",
        "signal", "USR2@2m", "requeue", "yes"));

    assertThat(group.partition()).isEqualTo("gpu");
    assertThat(group.account()).isEqualTo("lab");
    assertThat(group.time()).isEqualTo(Duration.ofMinutes(90));
    assertThat(group.requeue()).isTrue();
    assertThat(group.jobSignal()).contains(new JobSignal("USR2", 120));
    assertThatThrownBy(() -> SlurmKeys.TABLE.over(run, java.util.Map.of("mode", "allocation")))
        .isInstanceOfSatisfying(dev.berth.core.settings.InvalidValue.class, e -> {
          assertThat(e.path()).isEqualTo("mode");
          assertThat(e.rule()).contains("unknown key 'mode'", "partition");
        });
    assertThatThrownBy(() -> SlurmKeys.TABLE.over(run, java.util.Map.of("partition", "a b")))
        .isInstanceOfSatisfying(dev.berth.core.settings.InvalidValue.class, e -> {
          assertThat(e.path()).isEqualTo("partition");
          assertThat(e.rule()).contains("must be one word");
        });
  }

  @Test
  void aSignalIsWrittenAsADurationBeforeTheLimitWithAnOptionalSignalName() {
    assertThat(JobSignal.parse("")).isEmpty();
    assertThat(JobSignal.parse("5m")).contains(new JobSignal("USR1", 300));
    assertThat(JobSignal.parse("sigterm@90s").orElseThrow().option()).isEqualTo("--signal=B:TERM@90");
    assertThatThrownBy(() -> JobSignal.parse("KILL@1m")).hasMessageStartingWith("slurm.signal must be [SIG@]DURATION");
    assertThatThrownBy(() -> JobSignal.parse("19h")).hasMessageContaining("from 1s to 18h12m15s");
    assertThatThrownBy(() -> SlurmConfig.builder().set(SlurmKeys.SIGNAL, "soon").build())
        .hasMessageStartingWith("slurm.signal must be");
  }

  @Test
  void theConfigsDefaultsAskForNothingAndLimitNoArray() {
    RunSpec run = new RunSpec("r", "w", SchedulerConfig.DEFAULTS,
        List.of(new GroupSpec("g", List.of(TaskSpec.builder("a", "g").command("x").build()))));
    SlurmConfig config = SlurmKeys.TABLE.of(run);
    SlurmTuning tuning = SlurmTuning.forRun(config, run.config().maxProcess());

    assertThat(sbatch(config)).noneMatch(o -> o.startsWith("--partition") || o.startsWith("--account")
        || o.startsWith("--qos") || o.startsWith("--time"));
    assertThat(config.taskFolderRoot(RUN, "r")).isEqualTo(RUN);
    assertThat(config.shareGres()).isEqualTo(GpuMemoryGres.NONE);
    assertThat(config.arrays()).isTrue();
    assertThat(tuning.arrayMaxRunning()).isEqualTo(SchedulerConfig.DEFAULTS.maxProcess());
    assertThat(tuning.pollInitial()).isEqualTo(SlurmTuning.DEFAULTS.pollInitial());
  }

  @Test
  void aPollMaxBelowTheFirstWaitLowersTheFirstWait() {
    SlurmConfig config = withPollMax(Duration.ofMillis(50));

    assertThat(SlurmTuning.forRun(config, 0).pollInitial()).isEqualTo(Duration.ofMillis(50));
    assertThat(config.pollMax()).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void aFirstWaitLongerThanTheLongestIsRefused() {
    assertThatThrownBy(() -> new SlurmExecutor("r", withPollMax(Duration.ofSeconds(1)),
        SlurmTuning.DEFAULTS.withPollInitial(Duration.ofSeconds(2)), new FakeSlurm(), id -> SlurmResources.DEFAULT))
        .hasMessageContaining("pollMax");
  }

  @Test
  void anUnreadableGpuMemoryGresNamesTheAcceptedForms() {
    // Refused with the configuration itself, so that no sbatch call is ever built from it.
    assertThatThrownBy(() -> SlurmConfig.builder().set(SlurmKeys.GPU_MEMORY_GRES, "half-a-gpu").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be none, shard, shard:SIZE or NAME:SIZE")
        .hasRootCauseMessage("'half-a-gpu' is not a GPU-memory GRES; use none, shard, or NAME:SIZE such as gpumem:1MiB");
  }

  @Test
  void theBuilderKeepsTheArraySettingsAndRejectsANegativeLimit() {
    SlurmConfig config = SlurmConfig.builder().set(SlurmKeys.ARRAYS, false).build();
    SlurmTuning tuning = SlurmTuning.DEFAULTS.withArrayMaxRunning(3);

    assertThat(config.toBuilder().build()).isEqualTo(config);
    assertThat(tuning.arrayMaxRunning()).isEqualTo(3);
    assertThat(List.of(SlurmConfig.DEFAULTS.arrays(), SlurmTuning.DEFAULTS.arrayMaxRunning())).containsExactly(true, 0);
    assertThatThrownBy(() -> SlurmTuning.DEFAULTS.withArrayMaxRunning(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static List<String> sbatch(SlurmConfig config) {
    return SbatchCommand.forTask(config, "r.t", Requests.request(RUN, "t", 1), SlurmResources.DEFAULT, Optional.empty(),
        RUN.resolve("t").resolve("s.sh"));
  }

  private static SlurmConfig withPollMax(Duration pollMax) {
    return SlurmConfig.DEFAULTS.toBuilder().set(SlurmKeys.POLL_MAX, pollMax).build();
  }
}
