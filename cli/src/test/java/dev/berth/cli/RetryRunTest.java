package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: {@code berth retry} after a failing run runs only the failed task and the tasks that
 * became unreachable through it, with the next attempt numbers; successes do not run again; bad
 * selectors are refused with one line. And a task that finishes while Berth stops keeps its success.
 */
class RetryRunTest {

  /** Fails on its first run in its folder, succeeds after; counts its runs in ./runs. */
  private static final String FAILS_ONCE = "import os, sys; open('runs', 'a').write('run\\\\n'); "
      + "first = not os.path.exists('ran'); open('ran', 'w').close(); sys.exit(1 if first else 0)";
  private static final String COUNTS = "open('runs', 'a').write('run\\\\n')";

  @TempDir Path dir;

  private long runs(String group, String task) throws Exception {
    Path file = dir.resolve("out").resolve(group).resolve(task).resolve("runs");
    return Files.exists(file) ? Files.readAllLines(file).size() : 0;
  }

  private static JsonNode task(JsonNode report, String id) {
    for (JsonNode g : report.get("groups")) {
      for (JsonNode t : g.get("tasks")) {
        if (t.get("id").asText().equals(id)) {
          return t;
        }
      }
    }
    throw new AssertionError("no task " + id);
  }

  @Test
  void aRetryRunsOnlyTheFailedTaskAndWhatCouldNotRunBecauseOfIt() throws Exception {
    Path spec = spec(dir, "retries", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: main
            cpus: 0
            tasks:
              - id: "ok-{n}"
                matrix: {n: [1, 2, 3]}
                command: [python3, -c, "%s"]
              - id: flaky
                command: [python3, -c, "%s"]
              - id: after-flaky
                after: flaky
                command: [python3, -c, "%s"]
        """.formatted(COUNTS, FAILS_ONCE, COUNTS));
    Path workdir = dir.resolve("out");

    CliRunner first = CliRunner.berth("run", "--no-progress", spec.toString());
    assertThat(first.exitCode).as(first.out + first.err).isEqualTo(ExitCodes.TASKS_FAILED);
    assertThat(task(report(dir), "after-flaky").get("status").asText()).isEqualTo("UNREACHABLE");
    CliRunner again = CliRunner.berth("run", "--no-progress", spec.toString());
    assertThat(again.out).contains("berth retry " + workdir);

    CliRunner retry = CliRunner.berth("retry", "--no-progress", workdir.toString());

    assertThat(retry.exitCode).as(retry.out + retry.err).isEqualTo(ExitCodes.OK);
    JsonNode report = report(dir);
    assertThat(report.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(task(report, "flaky").get("attempts")).extracting(a -> a.get("number").asInt()).containsExactly(1, 2);
    assertThat(runs("main", "flaky")).isEqualTo(2);
    assertThat(runs("main", "after-flaky")).isEqualTo(1);
    for (String ok : new String[] {"ok-1", "ok-2", "ok-3"}) {
      assertThat(runs("main", ok)).as(ok).isEqualTo(1);
    }
    CliRunner status = CliRunner.berth("status", workdir.toString());
    assertThat(status.out).startsWith("retries: SUCCEEDED");

    CliRunner nothing = CliRunner.berth("retry", workdir.toString());
    CliRunner unknown = CliRunner.berth("retry", workdir.toString(), "nope-*");
    assertThat(nothing.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(nothing.err.strip()).endsWith("nothing to retry in retries: no task ended without success")
        .doesNotContain("\n");
    assertThat(unknown.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(unknown.err.strip()).endsWith("no task of run retries matches nope-*").doesNotContain("\n");
    assertThat(CliRunner.berth("retry", dir.resolve("none").toString()).exitCode).isEqualTo(ExitCodes.BAD_INPUT);
  }

  @Test
  void aTaskThatFinishesWhileBerthStopsKeepsItsSuccessAndTheOthersAreInterrupted() throws Exception {
    // Under nohup, Berth keeps SIGHUP ignored, as it was given to it: there is nothing to test then.
    assumeFalse(hangupIgnored(), "SIGHUP is ignored in this process tree (nohup)");
    String finishesOnTerm = "import signal, sys, time, pathlib; "
        + "signal.signal(signal.SIGTERM, lambda *a: (pathlib.Path('result.json').write_text('{}'), sys.exit(0))); "
        + "pathlib.Path('started').touch(); time.sleep(60)";
    Path spec = spec(dir, "stops", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: main
            cpus: 0
            tasks:
              - id: finishes
                command: [python3, -c, "%s"]
              - id: sleeps
                command: [python3, -c, "import pathlib, time; pathlib.Path('started').touch(); time.sleep(60)"]
        """.formatted(finishesOnTerm));
    BerthProcess berth = BerthProcess.start(dir, "run", "--no-progress", spec.toString());
    Path main = dir.resolve("out").resolve("main");
    while (!(Files.exists(main.resolve("finishes/started")) && Files.exists(main.resolve("sleeps/started")))) {
      assertThat(berth.process.waitFor(20, TimeUnit.MILLISECONDS)).as(berth.output()).isFalse();
    }

    berth.signal("HUP");

    assertThat(berth.await(60)).as(berth.output()).isEqualTo(ExitCodes.INTERRUPTED_SIGHUP);
    JsonNode report = report(dir);
    assertThat(report.get("status").asText()).isEqualTo("INTERRUPTED");
    assertThat(task(report, "finishes").get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(task(report, "sleeps").get("status").asText()).isEqualTo("INTERRUPTED");
    assertThat(task(report, "sleeps").get("error").asText()).startsWith("interrupted by SIGHUP");
    CliRunner status = CliRunner.berth("status", "--json", dir.resolve("out").toString());
    assertThat(RunFiles.json(Files.writeString(dir.resolve("status.json"), status.out)).get("status").asText())
        .isEqualTo("INTERRUPTED");
  }

  /** Whether this process ignores SIGHUP (bit 0 of Linux's {@code SigIgn} mask), as the Berth it starts then will. */
  private static boolean hangupIgnored() throws java.io.IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.isReadable(status)) {
      return false;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 1L) != 0;
      }
    }
    return false;
  }
}
