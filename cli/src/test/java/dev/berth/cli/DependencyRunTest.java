package dev.berth.cli;

import static dev.berth.cli.RunFiles.json;
import static dev.berth.cli.RunFiles.report;
import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end: {@code berth run} of a small real DAG of sh commands, and {@code berth cancel}. */
class DependencyRunTest {

  @TempDir Path dir;

  private static JsonNode task(JsonNode report, String id) {
    for (JsonNode g : report.get("groups")) {
      for (JsonNode t : g.get("tasks")) {
        if (t.get("id").asText().equals(id)) {
          return t;
        }
      }
    }
    throw new AssertionError("no task " + id + " in " + report);
  }

  private static List<String> outcomes(JsonNode task) {
    List<String> out = new ArrayList<>();
    task.get("attempts").forEach(a -> out.add(a.get("outcome").asText()));
    return out;
  }

  private static final String CONFIG = """
      config:
        scheduler: {default-memory: 1MiB, max-process: 8}
        remain-limit: {memory: 1MiB}
        utilization-limit: {cpu: 1.0}
      """;

  @Test
  void aSmallDagRunsFailuresCleanupsUnreachablesRetriesAndTimeoutsAsTheSpecSays() throws IOException {
    Path spec = spec(dir, "dag", CONFIG + """
        groups:
          - name: main
            cpus: 0.1
            tasks:
              - id: prep
                command: [sh, -c, "echo data > out.txt"]
              - id: use
                after: prep
                command: [sh, -c, "cat \\"$BERTH_DEP_PREP_DIR/out.txt\\""]
              - id: broken
                after: prep
                command: [sh, -c, "echo broken >&2; exit 3"]
              - id: cleanup
                after: {tasks: [broken], success: false, failure: true}
                command: [sh, -c, "cp \\"$BERTH_DEPS_FILE\\" seen.json"]
              - id: never
                after: broken
                command: [sh, -c, "echo must not run"]
              - id: never-either
                follow: never
                command: [sh, -c, "echo must not run"]
              - id: flaky
                retries: 2
                retry-delay: 200ms
                command: [sh, -c, "echo attempt $BERTH_ATTEMPT; test \\"$BERTH_ATTEMPT\\" -ge 3"]
              - id: slow
                timeout: 1s
                command: [sh, -c, "sleep 600 & wait"]
              - id: after-slow
                after: {tasks: [slow], failure: true}
                command: ["true"]
        """);

    Instant before = Instant.now();
    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());
    Duration took = Duration.between(before, Instant.now());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(1);
    JsonNode report = report(dir);
    assertThat(report.get("status").asText()).isEqualTo("FAILED");

    assertThat(task(report, "prep").get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(task(report, "use").get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(Files.readString(dir.resolve("out/main/use/stdout.log"))).isEqualTo("data\n");

    JsonNode broken = task(report, "broken");
    assertThat(broken.get("status").asText()).isEqualTo("FAILED");
    assertThat(broken.get("attempts").get(0).get("exitCode").asInt()).isEqualTo(3);

    assertThat(task(report, "cleanup").get("status").asText()).isEqualTo("SUCCEEDED");
    JsonNode seen = json(dir.resolve("out/main/cleanup/seen.json"));
    assertThat(seen.get("broken").get("status").asText()).isEqualTo("FAILED");
    assertThat(seen.get("broken").get("dir").asText()).isEqualTo(dir.resolve("out/main/broken").toString());
    assertThat(seen.get("broken").get("group").asText()).isEqualTo("main");

    JsonNode never = task(report, "never");
    assertThat(never.get("status").asText()).isEqualTo("UNREACHABLE");
    assertThat(never.get("error").asText()).isEqualTo("needs broken succeeded, but broken failed");
    assertThat(never.get("attempts")).isEmpty();
    assertThat(dir.resolve("out/main/never/stdout.log")).doesNotExist();
    JsonNode neverEither = task(report, "never-either");
    assertThat(neverEither.get("status").asText()).isEqualTo("UNREACHABLE");
    assertThat(neverEither.get("error").asText()).contains("never was unreachable");

    JsonNode flaky = task(report, "flaky");
    assertThat(flaky.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(outcomes(flaky)).containsExactly("FAILED", "FAILED", "SUCCEEDED");
    Instant firstEnd = Instant.parse(flaky.get("attempts").get(0).get("finishedAt").asText());
    Instant secondStart = Instant.parse(flaky.get("attempts").get(1).get("startedAt").asText());
    assertThat(Duration.between(firstEnd, secondStart)).as("retry-delay 200ms").isGreaterThanOrEqualTo(Duration.ofMillis(200));
    assertThat(Files.readString(dir.resolve("out/main/flaky/stdout.log"))).contains("attempt 3");

    JsonNode slow = task(report, "slow");
    assertThat(slow.get("status").asText()).isEqualTo("TIMED_OUT");
    assertThat(outcomes(slow)).containsExactly("TIMED_OUT");
    assertThat(slow.get("error").asText()).contains("ran longer than its timeout of 1.0s");
    Instant slowStart = Instant.parse(slow.get("attempts").get(0).get("startedAt").asText());
    Instant slowEnd = Instant.parse(slow.get("attempts").get(0).get("finishedAt").asText());
    // killed at its timeout, however loaded the machine: long before the 600 s sleep would end
    assertThat(Duration.between(slowStart, slowEnd)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(300));
    assertThat(task(report, "after-slow").get("status").asText()).isEqualTo("SUCCEEDED");

    assertThat(took).as("the whole-tree kill did not wait for sleep 600").isLessThan(Duration.ofSeconds(300));
  }

  @Test
  void groupsInParallelLetALaterGroupsTaskRunBeforeAnEarlierGroupsTaskThatNeedsIt() throws IOException {
    Path spec = spec(dir, "dag", CONFIG + """
        groups-in-parallel: true
        groups:
          - name: eval
            tasks:
              - id: eval
                after: "group:train"
                command: [sh, -c, "cat \\"$BERTH_DEP_TRAIN_1_DIR/model\\" \\"$BERTH_DEP_TRAIN_2_DIR/model\\""]
          - name: train
            tasks:
              - id: "train-{seed}"
                matrix: {seed: [1, 2]}
                command: [sh, -c, "echo model-{seed} > model"]
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertThat(Files.readString(dir.resolve("out/eval/eval/stdout.log"))).isEqualTo("model-1\nmodel-2\n");
  }

  @Test
  void aSpecWithACycleExitsTwoNamingTheCycleAndStartsNothing() throws IOException {
    Path spec = spec(dir, "dag", CONFIG + """
        groups:
          - name: g
            tasks:
              - {id: a, command: ["true"], after: b}
              - {id: b, command: ["true"], after: a}
        """);

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err.strip()).isEqualTo("berth: " + spec + ": groups[0].tasks[0].after: dependency cycle: a -> b -> a");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void cancelOnAFolderWithNoLiveRunExitsTwo() throws IOException {
    Files.createDirectories(dir.resolve("out"));

    CliRunner cancel = CliRunner.berth("cancel", dir.resolve("out").toString());

    assertThat(cancel.exitCode).isEqualTo(2);
    assertThat(cancel.err).contains("no run is live there");
    assertThat(dir.resolve("out/.berth/requests")).doesNotExist();
  }

  @Test
  void cancelOfATaskAnEndedRunDoesNotHaveIsRefusedNamingIt() throws IOException {
    Path spec = spec(dir, "dag", CONFIG + """
        groups:
          - name: g
            tasks:
              - {id: a, command: ["true"]}
        """);
    assertThat(CliRunner.berth("run", "--no-progress", spec.toString()).exitCode).isZero();

    CliRunner cancel = CliRunner.berth("cancel", dir.resolve("out").toString(), "group:nosuch");

    assertThat(cancel.exitCode).isEqualTo(2);
    assertThat(cancel.err.strip()).isEqualTo("berth: " + dir.resolve("out")
        + ": no task of run dag matches group:nosuch; nothing was cancelled");
  }

  @Test
  void cancelOnAFolderThatDoesNotExistExitsTwo() {
    CliRunner cancel = CliRunner.berth("cancel", dir.resolve("nowhere").toString(), "a");

    assertThat(cancel.exitCode).isEqualTo(2);
    assertThat(cancel.err).contains("no such run workdir");
  }

  @Test
  void aCancelRequestLeftOverFromAnEarlierRunDoesNotCancelTheNextRun() throws IOException {
    Path spec = spec(dir, "dag", CONFIG + """
        groups:
          - name: g
            tasks:
              - {id: a, command: ["true"]}
        """);
    // `berth cancel` saw the earlier run still holding the lock, and wrote after it had ended
    Path stale = dev.berth.runtime.control.CancelRequests.submit(dir.resolve("out"),
        new dev.berth.runtime.control.CancelRequests.Request(java.util.List.of(), "meant for the earlier run"));

    CliRunner run = CliRunner.berth("run", "--no-progress", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertThat(report(dir).get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(stale).doesNotExist();
  }

  @Test
  void cancelReachesALiveRunWhichCancelsTheTaskAndItsDependants() throws Exception {
    Path fifo = dir.resolve("started.fifo");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mk.waitFor(10, TimeUnit.SECONDS)).isTrue();
    Path spec = spec(dir, "dag", CONFIG + """
        groups:
          - name: g
            cpus: 0.1
            tasks:
              - id: long
                command: [sh, -c, "echo up > %s; sleep 60 & wait"]
              - id: next
                after: long
                command: ["true"]
              - id: quick
                command: ["true"]
        """.formatted(fifo));

    CompletableFuture<CliRunner> run = CompletableFuture.supplyAsync(
        () -> CliRunner.berth("run", "--no-progress", spec.toString()));
    CompletableFuture<String> up = CompletableFuture.supplyAsync(() -> {
      try {
        return Files.readString(fifo, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    assertThat(up.get(60, TimeUnit.SECONDS)).isEqualTo("up\n");

    CliRunner second = CliRunner.berth("run", "--no-progress", spec.toString());
    assertThat(second.exitCode).as("a second scheduler on the same workdir is refused").isEqualTo(2);
    assertThat(second.err).contains("is in use by another berth run");

    CliRunner nosuch = CliRunner.berth("cancel", dir.resolve("out").toString(), "lo*", "nosuch");
    assertThat(nosuch.exitCode).as(nosuch.out + nosuch.err).isEqualTo(2);
    assertThat(nosuch.err.strip()).isEqualTo("berth: " + dir.resolve("out")
        + ": no task of run dag matches nosuch; nothing was cancelled");
    assertThat(nosuch.out).isEmpty();

    CliRunner cancel = CliRunner.berth("cancel", dir.resolve("out").toString(), "lo*", "--reason", "enough");
    assertThat(cancel.exitCode).as(cancel.out + cancel.err).isZero();
    assertThat(cancel.out).contains("to cancel lo*");

    CliRunner finished = run.get(60, TimeUnit.SECONDS);
    assertThat(finished.exitCode).as(finished.out + finished.err).isEqualTo(1);
    JsonNode report = report(dir);
    assertThat(task(report, "long").get("status").asText()).isEqualTo("CANCELLED");
    assertThat(task(report, "long").get("error").asText()).isEqualTo("enough");
    assertThat(task(report, "next").get("status").asText()).isEqualTo("CANCELLED");
    assertThat(task(report, "next").get("error").asText()).contains("long was cancelled");
    assertThat(task(report, "quick").get("status").asText()).isEqualTo("SUCCEEDED");
  }
}
