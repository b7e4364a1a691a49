package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkdirOptionTest {

  @TempDir Path dir;

  private Path writeSpec() throws IOException {
    return RunFiles.spec(dir, "w", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: g
            tasks:
              - id: a
                command: ["true"]
        """);
  }

  @Test
  void runWithWorkdirWritesTheRunIntoThatFolderInsteadOfTheSpecs() throws IOException {
    Path other = dir.resolve("elsewhere");

    CliRunner run = CliRunner.berth("run", "--no-progress", "--workdir", other.toString(), writeSpec().toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertThat(other.resolve("report.json")).exists();
    assertThat(other.resolve("g/a")).isDirectory();
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void validateWithWorkdirNamesThatFolder() throws IOException {
    Path other = dir.resolve("elsewhere");

    CliRunner validate = CliRunner.berth("validate", "--workdir", other.toString(), writeSpec().toString());

    assertThat(validate.exitCode).as(validate.err).isZero();
    assertThat(validate.out).contains("-> " + other);
    assertThat(Files.exists(other)).isFalse();
  }

  @Test
  void anEmptyWorkdirIsBadInputOnOneLine() throws IOException {
    CliRunner run = CliRunner.berth("run", "--workdir", " ", writeSpec().toString());

    assertThat(run.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err).isEqualTo("berth: command line: --workdir: must not be empty; leave it out to use the spec's workdir\n");
  }
}
