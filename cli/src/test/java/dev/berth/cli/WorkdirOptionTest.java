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
  void aFolderOfTheUsersFilesIsRefusedUnlessAllowedAndAFreshStartNeverMovesIt() throws IOException {
    Path thesis = Files.createDirectories(dir.resolve("P"));
    Files.writeString(thesis.resolve("thesis.tex"), "chapter one");
    Path spec = writeSpec();

    CliRunner refused = CliRunner.berth("run", "--no-progress", "--workdir", thesis.toString(), spec.toString());

    assertThat(refused.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(refused.err).isEqualTo("berth: the workdir " + thesis + " holds files but no Berth run, and a run"
        + " writes its .berth folder, task folders and reports there; choose an empty or new workdir, or allow a run"
        + " among its files (--workdir-allow-nonempty)\n");
    try (var entries = Files.list(thesis)) {
      assertThat(entries).containsExactly(thesis.resolve("thesis.tex"));
    }

    CliRunner allowed = CliRunner.berth("run", "--no-progress", "--workdir-allow-nonempty", "--workdir",
        thesis.toString(), spec.toString());
    assertThat(allowed.exitCode).as(allowed.out + allowed.err).isZero();
    assertThat(thesis.resolve("report.json")).exists();

    CliRunner fresh = CliRunner.berth("run", "--no-progress", "--fresh", "--workdir", thesis.toString(),
        spec.toString());
    assertThat(fresh.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(fresh.err).contains("held files of its own before its first Berth run");
    assertThat(thesis.resolve("thesis.tex")).hasContent("chapter one");
    try (var siblings = Files.list(dir)) {
      assertThat(siblings).noneMatch(p -> p.getFileName().toString().startsWith("P.old-"));
    }
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
