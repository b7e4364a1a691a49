package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {

  @TempDir Path dir;

  @Test
  void aRunWhoseTasksAllSucceedExitsZeroAndWritesTheReport() throws IOException {
    Path spec = spec(dir, "t", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: prepare
            tasks:
              - id: make
                command: [sh, -c, "echo made > data.txt; echo to-stderr >&2"]
          - name: use
            tasks:
              - id: "use-{n}"
                matrix: {n: [1, 2, 3]}
                command: [sh, -c, "grep -q made \\"$BERTH_RUN_DIR/prepare/make/data.txt\\" && echo $BERTH_PARAM_N"]
        """);

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertThat(run.out).contains("SUCCEEDED").contains("4 tasks: 4 succeeded, 0 failed");
    JsonNode report = report(dir);
    assertThat(report.get("run").asText()).isEqualTo("t");
    assertThat(report.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(report.get("startedAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    assertThat(report.get("groups")).hasSize(2);
    JsonNode use2 = report.get("groups").get(1).get("tasks").get(1);
    assertThat(use2.get("id").asText()).isEqualTo("use-2");
    assertThat(use2.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(use2.get("params").get("n").asText()).isEqualTo("2");
    JsonNode attempt = use2.get("attempts").get(0);
    assertThat(attempt.get("number").asInt()).isEqualTo(1);
    assertThat(attempt.get("exitCode").asInt()).isZero();
    assertThat(attempt.get("device").asText()).isEqualTo("cpu");
    assertThat(attempt.get("reservedMemoryBytes").asLong()).isEqualTo(1L << 20);
    assertThat(attempt.get("outcome").asText()).isEqualTo("SUCCEEDED");
    assertThat(Files.readString(dir.resolve("out/use/use-2/stdout.log"))).isEqualTo("2\n");
    assertThat(Files.readString(dir.resolve("out/prepare/make/stderr.log"))).isEqualTo("to-stderr\n");
  }

  @Test
  void aFailingTaskMakesTheRunExitOneAndIsReportedWithItsError() throws IOException {
    Path spec = spec(dir, "t", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: g
            tasks:
              - id: ok
                command: ["true"]
              - id: bad
                command: [sh, -c, "echo broken >&2; exit 3"]
        """);

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).isEqualTo(1);
    assertThat(run.out).contains("FAILED").contains("bad: exited with code 3");
    JsonNode bad = report(dir).get("groups").get(0).get("tasks").get(1);
    assertThat(bad.get("status").asText()).isEqualTo("FAILED");
    assertThat(bad.get("error").asText()).isEqualTo("exited with code 3");
    assertThat(bad.get("attempts").get(0).get("exitCode").asInt()).isEqualTo(3);
    assertThat(report(dir).get("status").asText()).isEqualTo("FAILED");
  }

  @Test
  void aProgramThatDoesNotExistFailsItsTaskWithoutStoppingTheOthers() throws IOException {
    Path spec = spec(dir, "t", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: g
            tasks:
              - id: missing
                command: [no-such-program-berth-test]
              - id: fine
                command: ["true"]
        """);

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).isEqualTo(1);
    JsonNode tasks = report(dir).get("groups").get(0).get("tasks");
    assertThat(tasks.get(0).get("error").asText()).startsWith("could not start");
    assertThat(tasks.get(0).get("attempts").get(0).get("outcome").asText()).isEqualTo("START_FAILED");
    assertThat(tasks.get(1).get("status").asText()).isEqualTo("SUCCEEDED");
  }

  @Test
  void aTaskThatCanNeverFitFailsAtOnceWithTheReason() throws IOException {
    Path spec = spec(dir, "t", """
        groups:
          - name: g
            tasks:
              - id: huge
                command: ["true"]
                cpus: 100000
        """);

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).isEqualTo(1);
    assertThat(report(dir).get("groups").get(0).get("tasks").get(0).get("error").asText())
        .startsWith("can never be placed: cpus on host");
  }

  @Test
  void aBadSpecExitsTwoWithOneLineNamingTheFieldAndStartsNothing() throws IOException {
    Path spec = spec(dir, "t", """
        groups:
          - name: g
            tasks:
              - id: a
                command: ["true"]
                memory: 12 XB
        """);

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err.strip()).doesNotContain("\n").contains("spec.yaml").contains("memory").contains("XB");
    assertThat(run.err).doesNotContain("Exception");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void anUnknownOptionExitsTwo() {
    CliRunner run = CliRunner.berth("run", "--no-such-option", "x.yaml");

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err).contains("--no-such-option");
  }

  @Test
  void aBadOverrideExitsTwoNamingSet() throws IOException {
    Path spec = spec(dir, "t", """
        groups:
          - name: g
            tasks:
              - id: a
                command: ["true"]
        """);

    CliRunner run = CliRunner.berth("run", "--set", "scheduler.max-proces=3", spec.toString());

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err).contains("--set").contains("max-process");
  }

  @Test
  void aDryRunPrintsThePlanAndStartsNothing() throws IOException {
    Path spec = spec(dir, "t", """
        groups:
          - name: g
            tasks:
              - id: "t-{x}"
                matrix: {x: [a, b]}
                command: [echo, "{x}"]
                memory: 1GiB
        """);

    CliRunner run = CliRunner.berth("run", "--dry-run", spec.toString());

    assertThat(run.exitCode).isZero();
    assertThat(run.out).contains("t-a").contains("t-b").contains("1 GiB").contains("nothing started");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void validatePrintsTheExpandedTaskList() throws IOException {
    Path spec = spec(dir, "t", """
        groups:
          - name: g
            tasks:
              - id: "t-{x}-{y}"
                matrix: {x: [1, 2], y: [a, b]}
                command: [echo, "{x}{y}"]
        """);

    CliRunner run = CliRunner.berth("validate", spec.toString());

    assertThat(run.exitCode).isZero();
    assertThat(run.out).contains("t-1-a", "t-1-b", "t-2-a", "t-2-b").contains("spec OK: 1 group, 4 tasks");
  }
}
