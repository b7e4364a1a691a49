package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.RunState;
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
  private final RunState state;
  private final RunListener listener;
  private final InstantSource clock;
  private final HostShare share;
  private HostSnapshot snapshot;

  HostReadings(HostProbe probe, GpuTracker gpus, LiveExecutions executions, RunState state, RunListener listener,
      InstantSource clock, HostShare share) {
    this.probe = probe;
    this.gpus = gpus;
    this.executions = executions;
    this.state = state;
    this.listener = listener;
    this.clock = clock;
    this.share = share;
  }

  /**
   * Takes a reading now, with what other Berth runs on the host hold; GPU memory the tasks use is
   * what the run learns from.
   */
  void read() {
    SortedMap<TaskId, Long> pids = executions.pids();
    Instant now = clock.instant();
    snapshot = share.look(probe.read(now, pids).withGpus(gpus.read(now, pids)));
    snapshot.gpus().taskMemoryBytes().forEach(state::observeGpuUsage);
    listener.probed(snapshot);
  }

  /** Reads again what other runs on the host hold, keeping the probes' last reading; after a claim was refused. */
  void lookAgain() {
    snapshot = share.look(snapshot);
  }

  /** The latest reading; null before the first. */
  HostSnapshot snapshot() {
    return snapshot;
  }
}
