package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A one-stage task that dies of an out-of-memory error is retried whole with a bigger reservation,
 * under fedflow's budgets, which count attempts.
 */
class OomRetryRunTest {

  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  @TempDir Path dir;

  @Test
  void gpuAndHostOutOfMemoryDeathsAreRetriedWithGrowingReservationsUntilTheBudgetIsUsed() throws Exception {
    Path spec = dir.resolve("oom.yaml");
    Files.writeString(spec, """
        name: oom
        workdir: %s
        gpus: sim:1x24GiB
        config:
          scheduler: {load-nretry: 3, train-nretry: 3}
          remain-limit: {memory: 1MiB, cuda-memory: 0}
          utilization-limit: {cpu: 1.0, cuda-memory: 1.0}
        groups:
          - name: g
            cpus: 0
            tasks:
              - id: gpu-oom-once
                gpu-memory: 4GiB
                memory: 8MiB
                command: [sh, -c, "if [ $BERTH_ATTEMPT = 1 ]; then echo 'RuntimeError: CUDA out of memory.' >&2; exit 1; fi"]
              - id: host-oom-always
                memory: 8MiB
                command: [python3, %s]
        """.formatted(dir.resolve("out"), script("fill.py", """
            x = b'x' * (8 * 2**20)  # fills what it reserved, then fails to get more
            raise MemoryError
            """)));

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(1);
    JsonNode tasks = report(dir).get("groups").get(0).get("tasks");
    JsonNode gpu = tasks.get(0).get("attempts");
    assertThat(tasks.get(0).get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(gpu).hasSize(2);
    assertThat(gpu.get(0).get("outcome").asText()).isEqualTo("GPU_OOM");
    assertThat(gpu.get(0).get("reservedGpuMemoryBytes").asLong()).isEqualTo(4 * GIB);
    assertThat(gpu.get(1).get("reservedGpuMemoryBytes").asLong()).as("x1.5").isEqualTo(6 * GIB);

    JsonNode host = tasks.get(1).get("attempts");
    assertThat(tasks.get(1).get("status").asText()).isEqualTo("FAILED");
    assertThat(tasks.get(1).get("error").asText()).as(tasks.get(1).toString()).startsWith("LoadNumbersExceed");
    assertThat(host).as("load-nretry: 3 counts attempts").hasSize(3);
    assertThat(host).allSatisfy(a -> assertThat(a.get("outcome").asText()).isEqualTo("HOST_OOM"));
    assertThat(host.get(0).get("reservedMemoryBytes").asLong()).isEqualTo(8 * MIB);
    for (int i = 1; i < 3; i++) {
      long before = host.get(i - 1).get("reservedMemoryBytes").asLong();
      long peak = host.get(i - 1).get("peakMemoryBytes").asLong();
      assertThat(host.get(i).get("reservedMemoryBytes").asLong()).as("the larger of x1.5 and 1.2 x the measured peak")
          .isEqualTo(Math.max((long) Math.ceil(before * 1.5), (long) Math.ceil(peak * 1.2)));
    }
  }
  @Test
  void anEarlierAttemptsMemoryErrorDoesNotMakeALaterPlainFailureAnOutOfMemoryDeath() throws Exception {
    Path spec = RunFiles.spec(dir, "misdiagnosis", """
        config:
          scheduler: {load-nretry: 3}
        groups:
          - name: g
            tasks:
              - id: t
                memory: 8MiB
                retries: 0
                command: [python3, %s]
        """.formatted(script("t.py", """
            import os, sys
            x = b'x' * (8 * 2**20)
            if os.environ['BERTH_ATTEMPT'] == '1':
                raise MemoryError
            sys.stderr.write('plain\\x1b[2J')
            sys.exit(2)
            """)));

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(1);
    JsonNode task = report(dir).get("groups").get(0).get("tasks").get(0);
    JsonNode attempts = task.get("attempts");
    assertThat(attempts).hasSize(2);
    assertThat(attempts.get(0).get("outcome").asText()).isEqualTo("HOST_OOM");
    assertThat(attempts.get(1).get("outcome").asText()).as("its own stderr says nothing of memory").isEqualTo("FAILED");
    assertThat(task.get("status").asText()).isEqualTo("FAILED");
    Path taskDir = dir.resolve("out/g/t");
    assertThat(Files.readString(taskDir.resolve("attempt-1.stderr.log"))).contains("MemoryError");
    assertThat(taskDir.resolve("attempt-2.stderr.log")).hasContent("plain\u001b[2J");
    assertThat(taskDir.resolve("stderr.log")).as("the latest attempt's").hasContent("plain\u001b[2J");
    assertThat(attempts.get(1).get("stderrTail").asText()).as("the failing attempt's own, control characters replaced")
        .isEqualTo("plain?[2J");
    assertThat(attempts.get(0).get("stderrTail").isNull()).isTrue();
    assertThat(run.out).contains("    | plain?[2J").doesNotContain("\u001b[2J");
    assertThat(Files.readString(dir.resolve("out/report.md"))).as("escaped").contains("| plain?\\[2J |");
    assertThat(attempts.get(0).get("pid").asLong()).as("each attempt's real pid").isPositive()
        .isNotEqualTo(attempts.get(1).get("pid").asLong());
    assertThat(attempts).allSatisfy(a -> {
      assertThat(a.get("peakMemoryBytes").asLong()).as("measured").isPositive();
      assertThat(a.get("cpuSeconds").isNumber()).isTrue();
      assertThat(a.get("reservedMemoryBytes").asLong()).isPositive();
    });
  }

  private String script(String name, String text) throws java.io.IOException {
    return Files.writeString(dir.resolve(name), text).toString();
  }
}
