package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What validate and run --dry-run print: group order, every edge with its flags, tasks that can never fit. */
class PlanTest {

  @TempDir Path dir;

  private Path spec() throws IOException {
    return RunFiles.spec(dir, "plan", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}}
        groups:
          - name: prepare
            tasks:
              - id: a
                command: ["true"]
              - id: b
                command: ["true"]
          - name: train
            tasks:
              - id: plain
                command: ["true"]
                after: [a, b]
              - id: any-failure
                command: ["true"]
                after: {tasks: [a, b], all: false, success: false, failure: true}
              - id: same-device
                command: ["true"]
                follow: [a]
              - id: huge
                command: ["true"]
                memory: 900TiB
              - id: big-gpu
                command: ["true"]
                gpu-memory: 40GiB
        """);
  }

  @Test
  void validatePrintsEveryEdgeWithItsKindAndFlagsAndTheOrderGroupsRunIn() throws IOException {
    CliRunner validate = CliRunner.berth("validate", spec().toString());

    assertThat(validate.exitCode).as(validate.err).isZero();
    assertThat(validate.out)
        .contains("groups run one after another: prepare, then train")
        .contains("after a,b  true")
        .contains("after {tasks: [a,b], all: false, success: false, failure: true}  true")
        .contains("follow a  true")
        .contains("2 tasks can never be placed on this host (")
        .contains("  huge: can never be placed: memory on host: asked 900 TiB")
        .endsWith("spec OK: 2 groups, 7 tasks; 2 of them can never be placed on this host (see above)\n");
  }

  @Test
  void validateSaysWhichTasksAreTwoStageRetriedOrTimedAndStaysQuietWhenEveryTaskFits() throws IOException {
    Path file = RunFiles.spec(dir, "kinds", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}}
        groups:
          - name: g
            tasks:
              - {id: staged, command: ["true"], two-stage: true, retries: 2, timeout: 1h30m}
              - {id: plain, command: ["true"]}
        """);

    CliRunner validate = CliRunner.berth("validate", file.toString());

    assertThat(validate.exitCode).as(validate.err).isZero();
    assertThat(validate.out).contains("two-stage  retries 2  timeout 1h30m  true")
        .doesNotContain("never").endsWith("spec OK: 1 group, 2 tasks\n");
    assertThat(validate.out.lines().filter(l -> l.startsWith("  plain")).findFirst().orElseThrow())
        .doesNotContain("two-stage").doesNotContain("retries").doesNotContain("timeout");
  }

  @Test
  void aDryRunNamesTheTasksThatCanNeverFitThisHostOrTheGivenGpusAndWhy() throws IOException {
    CliRunner run = CliRunner.berth("run", "--dry-run", "--gpus", "sim:1x24GiB", spec().toString());

    assertThat(run.exitCode).as(run.err).isZero();
    assertThat(run.out)
        .contains("groups run one after another: prepare, then train")
        .contains("2 tasks can never be placed on this host (")
        .contains("  huge: can never be placed: memory on host: asked 900 TiB")
        .contains("  big-gpu: can never be placed: gpu-memory on")
        .endsWith("dry run: nothing started\n");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void aDryRunWithoutGpusSaysAGpuTaskCanNeverRun() throws IOException {
    CliRunner run = CliRunner.berth("run", "--dry-run", "--gpus", "none", spec().toString());

    assertThat(run.out).contains("  big-gpu: needs a GPU, but no GPU is available to Berth");
  }

  @Test
  void validateAndRunPrintTheSpecReadersWarningsOnStderr() throws IOException {
    Path spec = RunFiles.spec(dir, "bits", """
        groups:
          - name: g
            tasks:
              - id: a
                command: ["true"]
                memory: 2Gb
        """);

    for (String command : new String[] {"validate", "run --dry-run"}) {
      String[] words = (command + " " + spec).split(" ");
      CliRunner cli = CliRunner.berth(words);

      assertThat(cli.exitCode).as(command).isZero();
      assertThat(cli.err).as(command).isEqualTo("berth: warning: " + spec
          + ": groups[0].tasks[0].memory: '2Gb' is in bits, 238.4 MiB; write 2GB or 2GiB for bytes\n");
    }
  }
}
