package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the command line says about a run on Slurm before anything is submitted; no cluster needed. */
class SlurmPlanTest {

  @TempDir Path dir;

  private Path spec(String top) throws IOException {
    return Files.writeString(dir.resolve("spec.yaml"), "name: r\nworkdir: " + dir.resolve("out") + "\n" + top + """
        groups:
          - name: g
            tasks:
              - {id: fit, command: [python3, fit.py], memory: 3GiB, cpus: 2.5, gpus: 1, timeout: 90m}
        """);
  }

  @Test
  void aDryRunShowsWhatEachTaskAsksOfSlurm() throws IOException {
    CliRunner run = CliRunner.berth("run", "--dry-run", "--executor", "slurm", "--set", "slurm.partition=gpu",
        spec("").toString());

    assertThat(run.exitCode).as(run.err).isZero();
    assertThat(run.out).contains("on Slurm: one batch job per attempt, at most 20 of them in Slurm at once,"
        + " matrices as arrays, partition gpu")
        .contains("fit  --mem=3072M --cpus-per-task=3 --gres=gpu:1 --time=90  python3 fit.py")
        .doesNotContain("limits:");
  }

  @Test
  void anUnknownExecutorIsBadInputAndNothingStarts() throws IOException {
    CliRunner run = CliRunner.berth("run", "--executor", "k8s", spec("").toString());

    assertThat(run.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err).isEqualTo("berth: --executor must be local or slurm, not k8s\n");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void anUnknownOnExitChoiceIsBadInputForRunAndResume() throws IOException {
    CliRunner run = CliRunner.berth("run", "--on-exit", "later", spec("").toString());
    CliRunner resume = CliRunner.berth("resume", "--on-exit", "later", dir.toString());

    for (CliRunner r : java.util.List.of(run, resume)) {
      assertThat(r.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(r.err).isEqualTo("berth: --on-exit must be ask, cancel or leave, not later\n");
    }
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void aGroupsOwnSlurmOptionsShowInTheDryRunAndABadOneIsBadInputNamingFileFieldAndRule() throws IOException {
    Path file = Files.writeString(dir.resolve("groups.yaml"), "name: r\nworkdir: " + dir.resolve("out") + """

        executor: slurm
        slurm: {partition: cpu}
        groups:
          - name: train
            slurm: {partition: gpu, constraint: a100, signal: 5m}
            tasks:
              - {id: fit, command: [python3, fit.py], memory: 3GiB, timeout: 90m}
        """);

    CliRunner plan = CliRunner.berth("run", "--dry-run", file.toString());

    assertThat(plan.exitCode).as(plan.err).isZero();
    assertThat(plan.out).contains("partition cpu")
        .contains("fit  --mem=3072M --cpus-per-task=1 --time=90 --partition=gpu --constraint=a100 --signal=B:USR1@300");

    Files.writeString(file, Files.readString(file).replace("signal: 5m", "signal: soon"));
    CliRunner bad = CliRunner.berth("run", file.toString());

    assertThat(bad.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(bad.err).startsWith("berth: " + file + ": groups[0].slurm.signal: must be [SIG@]DURATION")
        .hasLineCount(1);
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void aBadSlurmSettingInTheSpecNamesTheFileAndField() throws IOException {
    Path file = spec("executor: slurm\nslurm: {time: soon}\n");

    CliRunner run = CliRunner.berth("run", file.toString());

    assertThat(run.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err).startsWith("berth: " + file + ": slurm.time").hasLineCount(1);
    assertThat(dir.resolve("out")).doesNotExist();
  }
}
