package dev.berth.spi;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.SortedMap;

/**
 * Reads the host's CPU and memory. Implementations sanitize their readings (no NaN, no negative
 * values) and report an unknown CPU utilization as -1 rather than 0.
 */
public interface HostProbe {

  /**
   * Takes a reading.
   *
   * @param now the time to stamp on the snapshot
   * @param taskPids process id of each running task, whose process-tree memory is measured
   */
  HostSnapshot read(Instant now, SortedMap<TaskId, Long> taskPids);
}
