package dev.berth.spec;

import dev.berth.core.model.ExecutorKind;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.settings.Setting;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigKeysTest {

  @TempDir Path dir;

  @Test
  void everySupportedKeyIsListedWithItsDefaultAndMeaning() {
    assertThat(ConfigKeys.all()).extracting(Setting::key).containsExactly(
        "scheduler.max-process", "scheduler.max-waiting", "scheduler.interval", "scheduler.default-memory",
        "scheduler.cores", "scheduler.load-nretry", "scheduler.train-nretry", "utilization-limit.cpu",
        "utilization-limit.memory", "remain-limit.memory", "scheduler.default-cuda-memory",
        "utilization-limit.cuda-memory", "remain-limit.cuda-memory", "scheduler.placement",
        "scheduler.max-per-device", "scheduler.put-interval", "scheduler.available-interval", "scheduler.seed",
        "scheduler.oom-growth", "scheduler.learn-usage", "scheduler.executor", "smtp.enable", "smtp.server-host", "smtp.server-port", "smtp.user", "smtp.password",
        "smtp.password-env", "smtp.receiver", "smtp.tls", "smtp.starttls", "smtp.min-interval", "smtp.max-numbers",
        "smtp.send", "slurm.mode", "slurm.partition", "slurm.account", "slurm.qos", "slurm.time", "slurm.extra-args",
        "slurm.workdir-root", "slurm.gpu-memory-gres", "slurm.arrays", "slurm.max-jobs", "slurm.gres", "slurm.cpus", "slurm.memory",
        "slurm.max-allocations", "slurm.on-exit", "slurm.poll-max");
    assertThat(ConfigKeys.all()).allSatisfy(k -> assertThat(k.docs()).isNotBlank());
  }

  @Test
  void defaultsAreWrittenTheWayAUserWouldWriteThem() {
    assertThat(ConfigKeys.all()).extracting(Setting::defaultValue)
        .startsWith("20", "10", "1s", "2GB", "0", "3", "3", "0.8", "0.8", "4GB", "2GB", "0.8", "2GB", "best-fit",
            "0", "5s", "5s", "0", "1.5", "mean", "local", "false");
  }

  @Test
  void yamlOfAConfigReadsBackAsTheSameConfig() throws SpecException {
    SchedulerConfig custom = SchedulerConfig.builder()
        .maxProcess(7).interval(Duration.ofMillis(1500)).defaultMemoryBytes(768L << 20)
        .cpuUtilizationLimit(0.35).remainMemoryBytes(123_456_789).cores(12).executor(ExecutorKind.SLURM)
        .slurm(dev.berth.core.model.SlurmConfig.DEFAULTS.with("partition", "gpu").with("time", Duration.ofHours(4))
            .with("extra-args", List.of("--constraint=a100", "--exclusive")).with("memory", 64L << 30))
        .build();

    Path file = SpecFiles.write(dir, "config.yaml", ConfigKeys.toYaml(custom));

    assertThat(SpecLoader.loadConfig(file, List.of())).isEqualTo(custom);
  }

  @Test
  void yamlOfTheDefaultsIsNestedBySection() {
    assertThat(ConfigKeys.toYaml(SchedulerConfig.DEFAULTS)).startsWith("""
        scheduler:
          max-process: 20
          max-waiting: 10
          interval: 1s
        """).contains("utilization-limit:\n  cpu: 0.8\n  memory: 0.8\n  cuda-memory: 0.8\n")
        .contains("remain-limit:\n  memory: 4GB\n  cuda-memory: 2GB\n").contains("  send: group\n")
        .endsWith("slurm:\n  mode: jobs\n  partition: \"\"\n  account: \"\"\n  qos: \"\"\n  time: 0s\n  extra-args: []\n"
            + "  workdir-root: \"\"\n  gpu-memory-gres: none\n  arrays: true\n  max-jobs: 0\n  gres: \"\"\n  cpus: 0\n  memory: 0\n"
            + "  max-allocations: 10\n  on-exit: ask\n  poll-max: 5s\n");
  }

  @Test
  void valuesShowsTheEffectiveValueOfEveryKey() {
    SchedulerConfig config = SchedulerConfig.builder().maxWaiting(0).build();

    assertThat(ConfigKeys.values(config)).hasSize(ConfigKeys.all().size()).containsEntry("scheduler.max-waiting", "0");
  }

  @Test
  void bytesAndDurationsUseTheLargestExactUnit() {
    assertThat(ConfigKeys.bytesText(512L << 20)).isEqualTo("512MiB");
    assertThat(ConfigKeys.bytesText(1_500_000)).isEqualTo("1500kB");
    assertThat(ConfigKeys.bytesText(1001)).isEqualTo("1001");
    assertThat(ConfigKeys.bytesText(0)).isEqualTo("0");
    assertThat(ConfigKeys.durationText(Duration.ofMinutes(90))).isEqualTo("1h30m");
    assertThat(ConfigKeys.durationText(Duration.ofMillis(250))).isEqualTo("250ms");
  }
}
