package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigCommandTest {

  @TempDir Path dir;

  @Test
  void defaultsListEveryKeyWithItsMeaningAsAConfigFileThatLoadsBack() throws Exception {
    CliRunner defaults = CliRunner.berth("config", "--defaults");

    assertThat(defaults.exitCode).isZero();
    assertThat(defaults.out).contains("  max-process: 20", "  default-memory: 2GB", "  cuda-memory: 0.8",
        "  # most task processes alive at once; 0 = unlimited", "smtp:", "  enable: false");
    assertThat(defaults.out).as("the local executor's keys, in core's scheduler section")
        .contains("\nscheduler:\n", "  enforce-memory: auto\n", "  log-cap: 1GiB\nutilization-limit:\n");
    Path config = dir.resolve("config.yaml");
    Files.writeString(config, defaults.out);
    Path spec = dir.resolve("s.yaml");
    Files.writeString(spec, "name: s\ngroups: [{name: g, tasks: [{id: a, command: [\"true\"]}]}]\n");
    CliRunner validate = CliRunner.berth("validate", "--config", config.toString(), spec.toString());
    assertThat(validate.exitCode).as(validate.err).isZero();
  }

  @Test
  void effectiveShowsTheMergedConfigurationOfASpec() throws Exception {
    Path spec = dir.resolve("s.yaml");
    Files.writeString(spec, """
        name: s
        config: {scheduler: {max-process: 3}}
        groups: [{name: g, tasks: [{id: a, command: ["true"]}]}]
        """);

    CliRunner run = CliRunner.berth("config", "--effective", spec.toString(), "--set", "remain-limit.memory=1GiB",
        "--set", "scheduler.log-cap=2MiB");

    assertThat(run.exitCode).as(run.err).isZero();
    assertThat(run.out).contains("  max-process: 3").contains("remain-limit:\n  memory: 1GiB")
        .contains("  log-cap: 2MiB\n");
  }
}
