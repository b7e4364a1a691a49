package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.core.report.DeviceReport;
import dev.berth.core.resources.HeldElsewhere;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.spi.HostProbe;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads the host and GPU probes, measuring the processes of the attempts under way, and keeps the
 * latest snapshot for the scheduler. Loop thread only.
 */
final class HostReadings {

  private final HostProbe probe;
  private final GpuTracker gpus;
  private final LiveExecutions executions;
  private final RunListener listener;
  private final InstantSource clock;
  private final HostShare share;
  private final Map<TaskId, Long> gpuPeaks = new TreeMap<>();
  private HostSnapshot snapshot;

  HostReadings(HostProbe probe, GpuTracker gpus, LiveExecutions executions, RunListener listener,
      InstantSource clock, HostShare share) {
    this.probe = probe;
    this.gpus = gpus;
    this.executions = executions;
    this.listener = listener;
    this.clock = clock;
    this.share = share;
  }

  /**
   * Takes a reading now, with what other Berth runs on the host hold, and keeps the most GPU memory
   * each task's processes were seen to hold.
   */
  void read() {
    SortedMap<TaskId, Long> pids = executions.pids();
    Instant now = clock.instant();
    snapshot = share.look(probe.read(now, pids).withGpus(gpus.read(now, pids)));
    snapshot.gpus().taskMemoryBytes().forEach((task, bytes) -> gpuPeaks.merge(task, bytes, Math::max));
    listener.probed(snapshot);
  }

  /**
   * Reads again what other runs on the host hold, keeping the probes' last reading; after a claim was
   * refused. Returns whether what they hold changed, which a pass deciding again then sees.
   */
  boolean lookAgain() {
    HeldElsewhere before = share.elsewhere();
    snapshot = share.look(snapshot);
    return !share.elsewhere().equals(before);
  }

  /**
   * The most GPU memory the probes saw {@code task}'s processes hold since this was last asked for
   * it (sampled on the probe interval), which it then forgets: what the attempt that just ended used.
   */
  Optional<Long> takeGpuPeak(TaskId task) {
    return Optional.ofNullable(gpuPeaks.remove(task));
  }

  /** The GPUs of the latest reading, as the run's report lists them. */
  List<DeviceReport> deviceReports() {
    return snapshot.gpus().devices().stream()
        .map(d -> new DeviceReport(d.id(), d.name(), d.totalMemoryBytes(), d.simulated())).toList();
  }

  /** The latest reading; null before the first. */
  HostSnapshot snapshot() {
    return snapshot;
  }
}
