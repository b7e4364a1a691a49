package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** What the tests of whole runs on the real Slurm cluster share: specs, Berth processes, squeue, reports. */
final class SlurmRuns {

  private static final ObjectMapper JSON = new ObjectMapper();

  private SlurmRuns() {}

  /** Writes the spec {@code name} with {@code executor: slurm} and its workdir under {@code dir}. */
  static Path spec(Path dir, String name, String body) throws IOException {
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(file, "name: " + name + "\nworkdir: " + dir.resolve(name) + "\nexecutor: slurm\n" + body);
    return file;
  }

  /** A Berth of this build in a process of its own, its output in {@code log}. */
  static Process berthProcess(Path log, String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    argv.addAll(List.of(args));
    return new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** The run's report.json. */
  static JsonNode report(Path dir, String run) throws IOException {
    return JSON.readTree(dir.resolve(run).resolve("report.json").toFile());
  }

  /** Task {@code id} of a report. */
  static JsonNode task(JsonNode report, String id) {
    for (JsonNode g : report.get("groups")) {
      for (JsonNode t : g.get("tasks")) {
        if (t.get("id").asText().equals(id)) {
          return t;
        }
      }
    }
    throw new AssertionError("no task " + id + " in the report");
  }

  /** The outcome of each attempt of a reported task. */
  static List<String> outcomes(JsonNode task) {
    List<String> outcomes = new ArrayList<>();
    task.get("attempts").forEach(a -> outcomes.add(a.get("outcome").asText()));
    return outcomes;
  }

  /** Waits until {@code done}, at most {@code limit}. */
  static void await(String what, Duration limit, BooleanSupplier done) throws InterruptedException {
    Instant end = Instant.now().plus(limit);
    while (!done.getAsBoolean()) {
      if (Instant.now().isAfter(end)) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(100); // waiting on a real cluster: there is no event to wait for from here
    }
  }

  /** Waits until squeue shows {@code job} in {@code state}. */
  static void awaitState(String job, String state, Duration limit) throws InterruptedException {
    await("job " + job + " to be " + state, limit, () -> {
      try {
        return squeue(job).equals(state);
      } catch (IOException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    });
  }

  /** The job's state as squeue shows it, or its error. */
  static String squeue(String job) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("squeue", "--noheader", "--states=all", "--format=%T", "--jobs=" + job)
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).strip();
    p.waitFor(30, TimeUnit.SECONDS);
    return out;
  }
}
