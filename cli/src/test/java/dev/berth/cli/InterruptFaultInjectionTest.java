package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM and SIGINT at random moments of a 60-task run, each time followed by the same
 * {@code berth run}: every interrupted Berth exits 143 or 130 with no task process left behind, no
 * success runs twice (each task appends a line to a file per run), and the run ends with 60 of 60
 * succeeded although no task has a retry: an interruption spends none. Seed: -Dberth.interrupt.seed.
 */
class InterruptFaultInjectionTest {

  private static final long SEED = Long.getLong("berth.interrupt.seed", System.nanoTime());
  private static final int TASKS = 60;
  private static final int SIGNALS = 5;

  @TempDir Path dir;

  @Test
  void signalsAtRandomMomentsInterruptAndTheSameCommandFinishesTheRunWithoutRepeatingASuccess() throws Exception {
    Random random = new Random(SEED);
    String marker = "berth-interrupt-" + UUID.randomUUID();
    Path spec = RunFiles.spec(dir, "interrupts", """
        config:
          scheduler: {default-memory: 1MiB, max-process: 8, interval: 200ms}
          remain-limit: {memory: 1MiB}
          utilization-limit: {cpu: 1.0}
        groups:
          - name: first
            cpus: 0
            tasks:
              - id: "a-{n}"
                matrix: {n: %s}
                command: [python3, -c, "%s", "%s", "1.0"]
          - name: second
            cpus: 0
            tasks:
              - id: "b-{n}"
                matrix: {n: %s}
                after: "a-{n}"
                command: [python3, -c, "%s", "%s", "0.25"]
        """.formatted(numbers(TASKS / 2), TASK, marker, numbers(TASKS / 2), TASK, marker));

    int interrupted = 0;
    int exit;
    String as = "seed " + SEED;
    do {
      BerthProcess berth = BerthProcess.start(dir, "run", "--no-progress", spec.toString());
      exit = -1;
      if (interrupted < SIGNALS) {
        long before = starts();
        boolean ended = false;
        while (!ended && starts() == before) { // signal a Berth that is running tasks
          ended = berth.process.waitFor(20, TimeUnit.MILLISECONDS);
        }
        ended = ended || berth.process.waitFor(random.nextInt(1500), TimeUnit.MILLISECONDS);
        if (!ended) {
          String signal = random.nextBoolean() ? "TERM" : "INT";
          berth.signal(signal);
          exit = berth.await(60);
          assertThat(exit).as("%s: berth after SIG%s: %s", as, signal, berth.output())
              .isIn(signal.equals("TERM") ? 143 : 130, 0);
          interrupted++;
        }
      }
      if (exit == -1) {
        exit = berth.await(120);
      }
      assertThat(leftBehind(marker)).as("%s: task processes alive after berth exited", as).isEmpty();
    } while (exit != 0);

    JsonNode report = report(dir);
    int interruptedAttempts = 0;
    assertThat(report.get("status").asText()).as(as).isEqualTo("SUCCEEDED");
    assertThat(report.at("/totals/succeeded").asInt()).as(as).isEqualTo(TASKS);
    for (JsonNode group : report.get("groups")) {
      for (JsonNode task : group.get("tasks")) {
        Path folder = dir.resolve("out").resolve(group.get("name").asText()).resolve(task.get("id").asText());
        List<String> lines = Files.readAllLines(folder.resolve("runs"));
        assertThat(folder.resolve("result.json")).as(as).exists();
        if (lines.contains("done")) { // without it, the attempt that wrote result.json was stopped on its way out
          assertThat(lines.subList(lines.indexOf("done"), lines.size()))
              .as("%s: %s did not run again once it had finished: %s", as, folder.getFileName(), lines)
              .doesNotContain("run");
        }
        for (JsonNode attempt : task.get("attempts")) {
          assertThat(attempt.get("outcome").asText()).as(as).isIn("SUCCEEDED", "INTERRUPTED");
          interruptedAttempts += attempt.get("outcome").asText().equals("INTERRUPTED") ? 1 : 0;
        }
      }
    }
    assertThat(interrupted).as(as).isPositive();
    assertThat(interruptedAttempts).as("%s: no task has a retry, yet interrupted ones succeeded", as).isPositive();
  }

  /**
   * Appends "run" to ./runs, works for the seconds its second argument gives, writes result.json
   * (which makes the attempt a success even if Berth's stop kills it right after), appends "done".
   * The first group's tasks work for a second, so the first signal, which comes within 1.5 s of a
   * task's start, finds tasks working even when a loaded machine makes Berth slow to act on it.
   */
  private static final String TASK = "import pathlib, sys, time; "
      + "r = pathlib.Path('runs'); r.open('a').write('run\\\\n'); time.sleep(float(sys.argv[2])); "
      + "pathlib.Path('result.json').write_text('{}'); r.open('a').write('done\\\\n')";

  private static String numbers(int n) {
    StringBuilder list = new StringBuilder("[");
    for (int i = 1; i <= n; i++) {
      list.append(i == 1 ? "" : ", ").append(i);
    }
    return list.append("]").toString();
  }

  /**
   * How many task attempts got as far as writing "run", over the whole run. Berth re-points a task's
   * stdout.log at each new attempt's log while this counts, so a walk that meets a file gone
   * under it starts again rather than failing.
   */
  private long starts() throws IOException {
    Path out = dir.resolve("out");
    while (true) {
      if (!Files.isDirectory(out)) {
        return 0;
      }
      try (Stream<Path> files = Files.walk(out, 3)) {
        long n = 0;
        for (Path runs : files.filter(f -> f.getFileName().toString().equals("runs")).toList()) {
          n += Files.readAllLines(runs).stream().filter("run"::equals).count();
        }
        return n;
      } catch (NoSuchFileException gone) {
        // a file moved during the walk: count again
      } catch (UncheckedIOException e) {
        if (!(e.getCause() instanceof NoSuchFileException)) {
          throw e;
        }
      }
    }
  }

  /** Live processes whose command line holds the marker: task processes of this test. */
  private static List<Long> leftBehind(String marker) {
    return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
        .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
        .map(ProcessHandle::pid).toList();
  }
}
