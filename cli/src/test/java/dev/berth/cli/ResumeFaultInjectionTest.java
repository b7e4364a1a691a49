package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kills the scheduler with SIGKILL at a random moment of a run, resumes it, and repeats until the
 * run ends (or up to eight times, after which the last resume runs to the end); then checks that every task ended, that no task that succeeded ran twice (tasks count
 * their own runs in a file), and that no result was lost. More trials: -Dberth.faults=200 (see
 * docs/resume.md).
 */
class ResumeFaultInjectionTest {

  private static final int TRIALS = Integer.getInteger("berth.faults", 20);
  private static final int KILLS = 8;

  @TempDir Path dir;

  static IntStream trials() {
    return IntStream.range(0, TRIALS);
  }

  @ParameterizedTest(name = "trial {0}")
  @MethodSource("trials")
  void aKilledRunResumesWithoutLosingOrRepeatingWork(int trial) throws Exception {
    Random random = new Random(trial);
    Path spec = dir.resolve("faults.yaml");
    Files.writeString(spec, """
        name: faults
        workdir: %s
        config:
          scheduler: {default-memory: 1MiB, interval: 200ms}
          remain-limit: {memory: 1MiB}
          utilization-limit: {cpu: 1.0}
        groups:
          - name: first
            tasks:
              - id: "a-{n}"
                matrix: {n: [1, 2, 3, 4]}
                command: [sh, -c, "echo run >> runs; sleep 0.2; echo '{\\"n\\": {n}}' > result.json; echo done >> runs"]
          - name: second
            tasks:
              - id: "b-{n}"
                matrix: {n: [1, 2, 3, 4]}
                after: "a-{n}"
                retries: 1
                command: [sh, -c, "echo run >> runs; sleep 0.15; echo '{\\"n\\": {n}}' > result.json; echo done >> runs"]
        """.formatted(dir.resolve("out")));

    int kills = 0;
    BerthProcess p = BerthProcess.start(dir, "run", "--no-progress", spec.toString());
    // At most KILLS kills: on a loaded machine a Berth may get nothing done between two of them.
    while (kills < KILLS && !p.process.waitFor(700 + random.nextInt(1300), TimeUnit.MILLISECONDS)) {
      p.process.destroyForcibly().waitFor();
      kills++;
      p = BerthProcess.start(dir, "run", "--no-progress", spec.toString());
    }
    assertThat(p.await(120)).as("trial %d: the last resume ends the run (after %d kills): %s", trial, kills,
        p.output()).isZero();

    JsonNode report = report(dir);
    assertThat(report.get("status").asText()).as("trial %d", trial).isEqualTo("SUCCEEDED");
    for (JsonNode group : report.get("groups")) {
      for (JsonNode task : group.get("tasks")) {
        String id = task.get("id").asText();
        Path folder = dir.resolve("out").resolve(group.get("name").asText()).resolve(id);
        List<String> lines = Files.readAllLines(folder.resolve("runs"));
        long runs = lines.stream().filter("run"::equals).count();
        long completed = lines.stream().filter("done"::equals).count();
        long succeeded = 0;
        for (JsonNode a : task.get("attempts")) {
          succeeded += a.get("outcome").asText().equals("SUCCEEDED") ? 1 : 0;
        }
        assertThat(succeeded).as("trial %d: %s succeeded once", trial, id).isEqualTo(1);
        assertThat(completed).as("trial %d: %s ran to its end once, not twice (%d kills)", trial, id, kills)
            .isEqualTo(1);
        assertThat(runs).as("trial %d: every run of %s is a recorded attempt (%d kills)", trial, id, kills)
            .isBetween(1L, (long) task.get("attempts").size());
        assertThat(folder.resolve("result.json")).as("trial %d: %s kept its result", trial, id).exists();
      }
    }
  }
}
