package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.runtime.contain.TaskContainment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With scheduler.enforce-memory, a runaway task is stopped alone, as out of memory, from its cgroup's record. */
class EnforceMemoryRunTest {

  @TempDir Path dir;

  @Test
  void aRunawayTaskIsStoppedAsOutOfMemoryWhileItsNeighboursFinish() throws Exception {
    assumeThat(TaskContainment.describeAvailable()).as("a cgroup can be made on this machine").startsWith("cgroup");
    assumeThat(Files.isExecutable(Path.of("/usr/bin/python3"))).as("python3 is installed").isTrue();
    Path spec = RunFiles.spec(dir, "runaway", """
        config:
          scheduler: {enforce-memory: true, load-nretry: 1}
          utilization-limit: {cpu: 1.0}
        groups:
          - name: g
            memory: 64MiB
            tasks:
              - id: runaway
                command: [/usr/bin/python3, -c, "chunks = [bytearray(b'x' * 2**20) for _ in range(4096)]"]
              - id: calm-1
                command: [sh, -c, "sleep 1"]
              - id: calm-2
                command: [sh, -c, "sleep 1"]
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(1);
    Map<String, JsonNode> tasks = new TreeMap<>();
    report(dir).get("groups").get(0).get("tasks").forEach(t -> tasks.put(t.get("id").asText(), t));
    assertThat(tasks.get("calm-1").get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(tasks.get("calm-2").get("status").asText()).isEqualTo("SUCCEEDED");
    JsonNode runaway = tasks.get("runaway");
    assertThat(runaway.get("status").asText()).isEqualTo("FAILED");
    JsonNode attempt = runaway.get("attempts").get(0);
    assertThat(attempt.get("outcome").asText()).isEqualTo("HOST_OOM");
    assertThat(attempt.get("error").asText()).contains("OOM killer");
    assertThat(attempt.get("peakMemoryBytes").asLong()).as("stopped at its limit: 64 MiB plus the 64 MiB margin")
        .isLessThanOrEqualTo(128L << 20);
  }
}
