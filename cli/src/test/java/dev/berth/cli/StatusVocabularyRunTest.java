package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the console, {@code berth status} and {@code report.json} name every task's status in
 * the same words and count them by the same rule.
 */
class StatusVocabularyRunTest {

  private static final String[] COUNTS = {"total", "succeeded", "failed", "timedOut", "cancelled", "unreachable",
      "running", "pending", "interrupted"};

  @TempDir Path dir;

  @Test
  void statusAndTheReportAgreeOnEveryTaskAndEveryCount() throws Exception {
    Path spec = spec(dir, "words", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: main
            cpus: 0.1
            tasks:
              - id: ok
                command: ["true"]
              - id: bad
                command: [sh, -c, "exit 3"]
              - id: slow
                timeout: 500ms
                command: [sh, -c, "sleep 30 & wait"]
              - id: never
                after: bad
                command: ["true"]
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());
    CliRunner status = CliRunner.berth("status", "--json", dir.resolve("out").toString());
    CliRunner table = CliRunner.berth("status", dir.resolve("out").toString());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(1);
    assertThat(status.exitCode).as(status.err).isZero();
    JsonNode report = report(dir);
    JsonNode shown = new ObjectMapper().readTree(status.out);
    Map<String, String> reported = new TreeMap<>();
    report.get("groups").get(0).get("tasks").forEach(t -> reported.put(t.get("id").asText(), t.get("status").asText()));
    Map<String, String> listed = new TreeMap<>();
    shown.get("tasks").forEach(t -> listed.put(t.get("id").asText(), t.get("status").asText()));
    assertThat(reported).containsExactlyInAnyOrderEntriesOf(Map.of(
        "ok", "SUCCEEDED", "bad", "FAILED", "slow", "TIMED_OUT", "never", "UNREACHABLE"));
    assertThat(listed).isEqualTo(reported);

    JsonNode reportCounts = report.get("groups").get(0).get("totals");
    JsonNode statusCounts = shown.get("groups").get(0);
    for (String count : COUNTS) {
      assertThat(statusCounts.get(count).asInt()).as(count).isEqualTo(reportCounts.get(count).asInt());
    }
    String sentence = "4 tasks: 1 succeeded, 1 failed, 1 timed out, 1 unreachable";
    assertThat(statusCounts.get("summary").asText()).isEqualTo(sentence);
    assertThat(table.out).contains(sentence).contains("TIMED_OUT").contains("UNREACHABLE").doesNotContain("EXITED");
    assertThat(table.out).as("how the run kept its tasks' processes").containsPattern(
        "task containment: (cgroup v2|cgroup v1|process tree)");
    assertThat(run.out).contains("FAILED - " + sentence).contains("group main: " + sentence);
  }
}
