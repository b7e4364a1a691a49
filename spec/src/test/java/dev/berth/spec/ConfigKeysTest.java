package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.ExecutorKind;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Setting;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.runtime.exec.LocalSettings;
import dev.berth.slurm.SlurmConfig;
import dev.berth.slurm.SlurmKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigKeysTest {

  private static final ConfigKeys KEYS = ConfigKeys.of(SpecFiles.ADAPTERS);

  @TempDir Path dir;

  private static RunSpec run(SchedulerConfig config) {
    return new RunSpec("r", "w", config, List.of(new GroupSpec("g", List.of(TaskSpec.builder("a", "g").command("x").build()))));
  }

  @Test
  void everySupportedKeyIsListedWithItsDefaultAndMeaning() {
    assertThat(KEYS.all()).extracting(Setting::key).containsExactly(
        "scheduler.max-process", "scheduler.max-waiting", "scheduler.max-tasks", "scheduler.interval",
        "scheduler.default-memory", "scheduler.cores", "scheduler.load-nretry", "scheduler.train-nretry", "utilization-limit.cpu",
        "utilization-limit.memory", "remain-limit.memory", "scheduler.default-cuda-memory",
        "utilization-limit.cuda-memory", "remain-limit.cuda-memory", "scheduler.placement",
        "scheduler.max-per-device", "scheduler.put-interval", "scheduler.available-interval", "scheduler.seed",
        "scheduler.oom-growth", "scheduler.learn-memory", "scheduler.learn-gpu-memory", "scheduler.learn-after",
        "scheduler.executor", "slurm.max-jobs", "scheduler.enforce-memory", "scheduler.log-cap", "smtp.enable",
        "smtp.server-host", "smtp.server-port", "smtp.user", "smtp.password", "smtp.password-env", "smtp.password-file",
        "smtp.receiver",
        "smtp.tls", "smtp.starttls", "smtp.min-interval", "smtp.max-numbers", "smtp.send", "slurm.mode",
        "slurm.partition", "slurm.account", "slurm.qos", "slurm.time", "slurm.constraint", "slurm.extra-args",
        "slurm.requeue", "slurm.signal", "slurm.workdir-root",
        "slurm.gpu-memory-gres", "slurm.arrays", "slurm.gres", "slurm.cpus", "slurm.memory", "slurm.max-allocations",
        "slurm.on-exit", "slurm.poll-max", "slurm.retry-for");
    assertThat(KEYS.all()).allSatisfy(k -> assertThat(k.docs()).isNotBlank());
  }

  @Test
  void defaultsAreWrittenTheWayAUserWouldWriteThem() {
    assertThat(KEYS.all()).extracting(Setting::defaultValue)
        .startsWith("20", "10", "1000000", "1s", "2GB", "0", "3", "3", "0.8", "0.8", "4GB", "2GB", "0.8", "2GB",
            "spread", "0", "5s", "5s", "0", "1.5", "on", "on", "3", "local", "0", "auto", "1GiB", "false");
  }

  @Test
  void yamlOfAConfigReadsBackAsTheSameConfig() throws SpecException {
    SchedulerConfig custom = SchedulerConfig.builder()
        .set(SchedulerKeys.MAX_PROCESS, 7).set(SchedulerKeys.INTERVAL, Duration.ofMillis(1500))
        .set(SchedulerKeys.DEFAULT_MEMORY, 768L << 20)
        .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 0.35).set(SchedulerKeys.REMAIN_MEMORY, 123_456_789L)
        .set(SchedulerKeys.CORES, 12).set(SchedulerKeys.EXECUTOR, ExecutorKind.SLURM).set(SchedulerKeys.MAX_JOBS, 5)
        .set(SchedulerKeys.LEARN_MEMORY, false).set(SchedulerKeys.LEARN_AFTER, 5)
        .build();
    SlurmConfig slurm = SlurmConfig.builder().set(SlurmKeys.PARTITION, "gpu").set(SlurmKeys.TIME, Duration.ofHours(4))
        .set(SlurmKeys.EXTRA_ARGS, List.of("--constraint=a100", "--exclusive"))
        .set(SlurmKeys.MEMORY, 64L << 30).build();
    LocalSettings local = LocalSettings.builder().enforceMemory(true).logCapBytes(3L << 20).build();
    RunSpec written = LocalKeys.TABLE.into(SlurmKeys.TABLE.into(run(custom), slurm), local);

    Path file = SpecFiles.write(dir, "config.yaml", KEYS.toYaml(written));
    RunSpec read = SpecLoader.load(SpecFiles.write(dir, "spec.yaml", SpecFiles.oneGroup("- {id: a, command: [x]}")),
        file, List.of(), SpecFiles.ADAPTERS);

    assertThat(read.config()).isEqualTo(custom);
    assertThat(SlurmKeys.TABLE.of(read)).isEqualTo(slurm);
    assertThat(LocalKeys.TABLE.of(read)).isEqualTo(local);
  }

  @Test
  void yamlOfTheDefaultsIsNestedBySection() {
    assertThat(KEYS.toYaml(run(SchedulerConfig.DEFAULTS))).startsWith("""
        scheduler:
          max-process: 20
          max-waiting: 10
          max-tasks: 1000000
          interval: 1s
        """).contains("utilization-limit:\n  cpu: 0.8\n  memory: 0.8\n  cuda-memory: 0.8\n")
        .contains("remain-limit:\n  memory: 4GB\n  cuda-memory: 2GB\n").contains("  send: group\n")
        .endsWith("slurm:\n  max-jobs: 0\n  mode: jobs\n  partition: \"\"\n  account: \"\"\n  qos: \"\"\n  time: 0s\n"
            + "  constraint: \"\"\n  extra-args: []\n  requeue: false\n  signal: \"\"\n  workdir-root: \"\"\n  gpu-memory-gres: none\n  arrays: true\n  gres: \"\"\n  cpus: 0\n"
            + "  memory: 0\n  max-allocations: 10\n  on-exit: ask\n  poll-max: 1m\n  retry-for: 5m\n");
  }

  /** An adapter's switch kept in core's {@code scheduler} section. */
  private record Knob(boolean on) {}

  private static final class KnobBuilder {
    boolean on;
  }

  @Test
  void aSectionAnAdapterSharesWithCoreStaysWhereCorePutsItUnlessTheAdapterIsNamedAfterIt() {
    SettingsTable<Knob, KnobBuilder> knobs = SettingsTable.of("knobs", Knob.class, KnobBuilder::new,
        b -> new Knob(b.on), List.of(ConfigKey.<Knob, KnobBuilder, Boolean>of("scheduler.knob", "true or false",
            Parsers.BOOLEAN, (b, v) -> b.on = v, Knob::on, String::valueOf, "a switch")));
    List<SettingsTable<?, ?>> adapters = new ArrayList<>(List.of(knobs));
    adapters.addAll(SpecFiles.ADAPTERS);

    String yaml = ConfigKeys.of(adapters).toYaml(run(SchedulerConfig.DEFAULTS));

    assertThat(yaml).startsWith("scheduler:\n  max-process: 20\n")
        .contains("  executor: local\n  knob: false\n  enforce-memory: auto\n  log-cap: 1GiB\nutilization-limit:\n")
        .endsWith("  poll-max: 1m\n  retry-for: 5m\n");
    assertThat(yaml.indexOf("slurm:")).isGreaterThan(yaml.indexOf("smtp:"));
  }

  @Test
  void theDefaultsAreAConfigFileWithEachKeysMeaning() {
    assertThat(KEYS.defaultsYaml()).startsWith("scheduler:\n  # most task processes alive at once; 0 = unlimited\n"
        + "  max-process: 20\n").contains("smtp:\n  # mail the reports\n  enable: false\n");
  }

  @Test
  void valuesShowsTheEffectiveValueOfEveryKeyAndHidesTheMailPassword() throws SpecException {
    RunSpec run = SpecLoader.load(SpecFiles.write(dir, "spec.yaml", "config: {scheduler: {max-waiting: 0},"
        + " smtp: {password: hunter2}}\n" + SpecFiles.oneGroup("- {id: a, command: [x]}")), null, List.of(),
        SpecFiles.ADAPTERS);

    assertThat(KEYS.values(run)).hasSize(KEYS.all().size()).containsEntry("scheduler.max-waiting", "0")
        .containsEntry("smtp.password", "****");
  }
}
