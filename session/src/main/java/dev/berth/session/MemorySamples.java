package dev.berth.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunReport;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.RunState;
import dev.berth.runtime.engine.RunListener;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Records, at the probe ticks the engine already has, how much memory the run reserved and how much
 * its tasks were seen using, per device ({@code host}, {@code cuda:0}, ...), one JSON line per sample
 * in {@code samples.jsonl} in the run folder: the history the dashboard's API serves. A line
 * is written when the reservations changed, or at most every {@link #SPACING} otherwise; a resumed
 * run appends. Called on the engine's loop thread; a sample costs one short write.
 */
final class MemorySamples implements RunListener, AutoCloseable {

  /** The file's name in the run folder. */
  static final String FILE = "samples.jsonl";

  /** The least time between two samples whose reservations are the same. */
  static final Duration SPACING = Duration.ofSeconds(2);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Consumer<String> warn;
  private RunState state;
  private HostSnapshot lastSnapshot;
  private OutputStream out;
  private Instant lastAt;
  private Map<String, Long> lastReserved = Map.of();
  private boolean failed;

  MemorySamples(Path runDir, Consumer<String> warn) {
    this.file = of(runDir);
    this.warn = warn;
  }

  /** The file's location in a run folder. */
  static Path of(Path runDir) {
    return runDir.resolve(FILE);
  }

  @Override
  public void runStarted(RunState started) {
    this.state = started;
  }

  @Override
  public void probed(HostSnapshot snapshot) {
    if (state == null || failed) {
      return;
    }
    lastSnapshot = snapshot;
    Map<String, long[]> devices = devices(snapshot);
    Map<String, Long> reserved = new TreeMap<>();
    devices.forEach((d, v) -> reserved.put(d, v[0]));
    Instant at = snapshot.takenAt();
    if (lastAt != null && reserved.equals(lastReserved) && Duration.between(lastAt, at).compareTo(SPACING) < 0) {
      return;
    }
    write(at, devices, reserved);
  }

  /** The run ended: a last sample, with nothing reserved or used any more, closes its chart. */
  @Override
  public void runFinished(RunReport report) {
    if (state == null || failed || lastSnapshot == null || report.finishedAt() == null
        || report.finishedAt().isBefore(lastAt)) {
      return;
    }
    Map<String, long[]> devices = devices(lastSnapshot);
    devices.values().forEach(v -> {
      v[0] = 0;
      v[1] = 0;
    });
    write(report.finishedAt(), devices, Map.of());
  }

  private void write(Instant at, Map<String, long[]> devices, Map<String, Long> reserved) {
    ObjectNode line = JSON.createObjectNode().put("at", at.toEpochMilli());
    ObjectNode byDevice = line.putObject("devices");
    devices.forEach((d, v) -> byDevice.putObject(d).put("reservedBytes", v[0]).put("usedBytes", v[1])
        .put("totalBytes", v[2]));
    try {
      if (out == null) {
        out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
      out.write((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      lastAt = at;
      lastReserved = reserved;
    } catch (IOException e) {
      failed = true; // the chart is a nicety: the run goes on without it
      warn.accept("berth: cannot record memory samples in " + file + ": " + e.getMessage());
    }
  }

  /** Reserved, used and total bytes per device, the host first, then each GPU. */
  private Map<String, long[]> devices(HostSnapshot snapshot) {
    Map<String, long[]> devices = new TreeMap<>((a, b) -> a.equals(b) ? 0 : a.equals("host") ? -1 : b.equals("host") ? 1 : a.compareTo(b));
    long[] host = {0, 0, snapshot.totalMemoryBytes()};
    devices.put("host", host);
    for (GpuDevice g : snapshot.gpus().devices()) {
      devices.put("cuda:" + g.index(), new long[] {0, 0, g.totalMemoryBytes()});
    }
    for (Map.Entry<TaskId, TaskEvent.Launched> e : state.running().entrySet()) {
      Placement p = e.getValue().placement();
      host[0] += p.memoryBytes();
      host[1] += snapshot.taskMemoryBytes().getOrDefault(e.getKey(), 0L);
      List<Integer> gpus = p.gpuIndices();
      long used = snapshot.gpus().taskMemoryBytes().getOrDefault(e.getKey(), 0L);
      for (int i : gpus) {
        long[] d = devices.computeIfAbsent("cuda:" + i, k -> new long[3]);
        d[0] += p.gpuMemoryBytes();
        d[1] += used / gpus.size(); // a task's processes are measured together, not per device
      }
    }
    return devices;
  }

  @Override
  public void close() {
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        // every line was flushed as it was written
      }
    }
  }
}
