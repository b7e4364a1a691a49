package dev.berth.cli;

import static dev.berth.cli.RunFiles.report;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on two simulated 24 GiB GPUs: tasks of 1-12 GiB that sleep a little are packed by
 * memory; the report shows that, at every instant, reservations on each device stay within its
 * capacity, and the makespan stays close to the lower bound.
 */
class GpuPackingRunTest {

  private static final long GIB = 1L << 30;
  private static final double SLEEP_SECONDS = 0.4;

  @TempDir Path dir;

  @Test
  void tasksArePackedByMemoryWithinCapacityAndCloseToTheLowerBound() throws Exception {
    Random rnd = new Random(7);
    StringBuilder tasks = new StringBuilder();
    long memoryTime = 0;
    for (int i = 0; i < 24; i++) {
      int gib = 1 + rnd.nextInt(12);
      memoryTime += gib;
      tasks.append("      - id: t").append(i).append("\n        gpu-memory: ").append(gib).append("GiB\n")
          .append("        command: [sleep, \"").append(SLEEP_SECONDS).append("\"]\n");
    }
    Path spec = dir.resolve("pack.yaml");
    Files.writeString(spec, """
        name: pack
        workdir: %s
        gpus: sim:2x24GiB
        config:
          scheduler: {default-memory: 1MiB, placement: best-fit}
          remain-limit: {memory: 1MiB, cuda-memory: 0}
          utilization-limit: {cuda-memory: 1.0, cpu: 1.0}
        groups:
          - name: g
            cpus: 0
            tasks:
        %s""".formatted(dir.resolve("out"), tasks));

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    JsonNode report = report(dir);
    assertThat(report.get("devices")).allSatisfy(d -> assertThat(d.get("simulated").asBoolean()).isTrue());
    record Interval(String device, Instant start, Instant end, long bytes) {}
    List<Interval> intervals = new ArrayList<>();
    Instant first = null;
    Instant last = null;
    for (JsonNode t : report.get("groups").get(0).get("tasks")) {
      JsonNode a = t.get("attempts").get(0);
      Interval iv = new Interval(a.get("device").asText(), Instant.parse(a.get("startedAt").asText()),
          Instant.parse(a.get("finishedAt").asText()), a.get("reservedGpuMemoryBytes").asLong());
      intervals.add(iv);
      first = first == null || iv.start().isBefore(first) ? iv.start() : first;
      last = last == null || iv.end().isAfter(last) ? iv.end() : last;
    }
    for (Interval probe : intervals) {
      TreeMap<String, Long> inUse = new TreeMap<>();
      for (Interval other : intervals) {
        if (!other.start().isAfter(probe.start()) && other.end().isAfter(probe.start())) {
          inUse.merge(other.device(), other.bytes(), Long::sum);
        }
      }
      inUse.forEach((device, bytes) ->
          assertThat(bytes).as("reserved on %s at %s", device, probe.start()).isLessThanOrEqualTo(24 * GIB));
    }
    double bound = Math.max(memoryTime * SLEEP_SECONDS / 48.0, SLEEP_SECONDS);
    double makespan = Duration.between(first, last).toMillis() / 1000.0;
    assertThat(makespan).as("makespan %.2fs vs lower bound %.2fs", makespan, bound).isLessThan(bound * 1.6 + 0.5);
  }
}
