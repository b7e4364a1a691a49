package dev.berth.runtime.pool;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.spi.HostProbe;
import java.time.Instant;
import java.util.SortedMap;
import java.util.function.LongSupplier;

/**
 * A host probe whose readings count what live engines hold between calls (a pool's {@code memory}) as
 * used: the available memory it reports is the wrapped probe's, less each live engine's hold beyond
 * the resident memory it was last measured at, which the wrapped probe already sees as used. So
 * admission never hands out memory an engine's setup loaded, or is loading, for its calls.
 */
public final class WorkerHoldings implements HostProbe {

  private final HostProbe probe;
  private final LongSupplier heldBytes;

  /** Wraps {@code probe}; {@code heldBytes} says what live engines hold beyond what they were measured at. */
  public WorkerHoldings(HostProbe probe, LongSupplier heldBytes) {
    this.probe = probe;
    this.heldBytes = heldBytes;
  }

  @Override
  public HostSnapshot read(Instant now, SortedMap<TaskId, Long> taskPids) {
    HostSnapshot s = probe.read(now, taskPids);
    long held = heldBytes.getAsLong();
    if (held <= 0) {
      return s;
    }
    return new HostSnapshot(s.takenAt(), s.logicalCpus(), s.cpuUtilization(), s.totalMemoryBytes(),
        Math.max(0, s.availableMemoryBytes() - held), s.taskMemoryBytes(), s.gpus(), s.elsewhere());
  }
}
