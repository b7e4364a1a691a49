package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.SchedulerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigPrecedenceTest {

  @TempDir Path dir;

  private SchedulerConfig load(String specConfig, String configFile, String... overrides) throws SpecException {
    String spec = (specConfig == null ? "" : specConfig + "\n") + SpecFiles.oneGroup("- {id: a, command: [x]}");
    Path config = configFile == null ? null : SpecFiles.write(dir, "config.yaml", configFile);
    return SpecLoader.load(SpecFiles.write(dir, "spec.yaml", spec), config, List.of(overrides)).config();
  }

  @Test
  void configFileOverridesTheDefaults() throws SpecException {
    SchedulerConfig config = load(null, "scheduler: {max-process: 4}");

    assertThat(config.maxProcess()).isEqualTo(4);
    assertThat(config.maxWaiting()).isEqualTo(SchedulerConfig.DEFAULTS.maxWaiting());
  }

  @Test
  void specConfigOverridesTheConfigFile() throws SpecException {
    SchedulerConfig config = load("config: {scheduler: {max-process: 6}}",
        "scheduler: {max-process: 4, max-waiting: 2}");

    assertThat(config.maxProcess()).isEqualTo(6);
    assertThat(config.maxWaiting()).isEqualTo(2);
  }

  @Test
  void setOverridesOverrideEverything() throws SpecException {
    SchedulerConfig config = load("config: {scheduler: {max-process: 6}}", "scheduler: {max-process: 4}",
        "scheduler.max-process=8", "utilization-limit.cpu=0.5");

    assertThat(config.maxProcess()).isEqualTo(8);
    assertThat(config.cpuUtilizationLimit()).isEqualTo(0.5);
  }

  @Test
  void theLastSetOfAKeyWins() throws SpecException {
    SchedulerConfig config = load(null, null, "scheduler.max-process=8", "scheduler.max-process = 9");

    assertThat(config.maxProcess()).isEqualTo(9);
  }

  @Test
  void configFileMayUseFlatDottedKeys() throws SpecException {
    SchedulerConfig config = load(null, """
        scheduler.max-process: 4
        remain-limit.memory: 1GiB
        utilization-limit:
          memory: 0.9
        """);

    assertThat(config.maxProcess()).isEqualTo(4);
    assertThat(config.remainMemoryBytes()).isEqualTo(1L << 30);
    assertThat(config.memoryUtilizationLimit()).isEqualTo(0.9);
  }

  @Test
  void specConfigMayUseFlatDottedKeys() throws SpecException {
    SchedulerConfig config = load("""
        config:
          scheduler.cores: 6
          scheduler.load-nretry: 5
          scheduler.train-nretry: 2
        """, null);

    assertThat(config.cores()).isEqualTo(6);
    assertThat(config.loadNretry()).isEqualTo(5);
    assertThat(config.trainNretry()).isEqualTo(2);
  }

  @Test
  void durationsAcceptUnitsAndBareSeconds() throws SpecException {
    assertThat(load("config: {scheduler: {interval: 500ms}}", null).interval()).isEqualTo(Duration.ofMillis(500));
    assertThat(load("config: {scheduler: {interval: 3}}", null).interval()).isEqualTo(Duration.ofSeconds(3));
    assertThat(load(null, null, "scheduler.interval=1m30s").interval()).isEqualTo(Duration.ofSeconds(90));
  }

  @Test
  void setValuesAreParsedAsYamlScalars() throws SpecException {
    SchedulerConfig config = load(null, null, "scheduler.default-memory=512MiB", "remain-limit.memory=1000");

    assertThat(config.defaultMemoryBytes()).isEqualTo(512L << 20);
    assertThat(config.remainMemoryBytes()).isEqualTo(1000);
  }

  @Test
  void emptyConfigFileAndEmptyConfigBlockChangeNothing() throws SpecException {
    SchedulerConfig config = load("config:", "# nothing here\n");

    assertThat(config).isEqualTo(SchedulerConfig.DEFAULTS);
  }

  @Test
  void loadConfigStacksFileAndOverridesWithoutASpec() throws SpecException {
    Path file = SpecFiles.write(dir, "config.yaml", "scheduler: {max-process: 4, cores: 2}");

    SchedulerConfig config = SpecLoader.loadConfig(file, List.of("scheduler.cores=3"));

    assertThat(config.maxProcess()).isEqualTo(4);
    assertThat(config.cores()).isEqualTo(3);
  }

  @Test
  void loadConfigWithNothingGivesTheDefaults() throws SpecException {
    assertThat(SpecLoader.loadConfig(null, null)).isEqualTo(SchedulerConfig.DEFAULTS);
  }
}
