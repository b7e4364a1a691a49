package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.spi.HostProbe;
import java.time.Instant;
import java.time.InstantSource;
import java.util.SortedMap;

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
  private HostSnapshot snapshot;

  HostReadings(HostProbe probe, GpuTracker gpus, LiveExecutions executions, RunListener listener,
      InstantSource clock) {
    this.probe = probe;
    this.gpus = gpus;
    this.executions = executions;
    this.listener = listener;
    this.clock = clock;
  }

  /** Takes a reading now. */
  void read() {
    SortedMap<TaskId, Long> pids = executions.pids();
    Instant now = clock.instant();
    snapshot = probe.read(now, pids).withGpus(gpus.read(now, pids));
    listener.probed(snapshot);
  }

  /** The latest reading; null before the first. */
  HostSnapshot snapshot() {
    return snapshot;
  }
}
