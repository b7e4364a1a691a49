package dev.berth.session;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.spi.HostProbe;
import java.time.Instant;
import java.util.SortedMap;
import java.util.function.LongSupplier;

/**
 * The host as the Berth inside a Slurm allocation may use it: the node's readings, with the memory
 * capped at the allocation's. What is available is the cap less what the tasks' process trees and this
 * Berth itself hold, or the node's free memory when that is less, since Slurm counts every process of
 * the job against the allocation. The node's CPU utilization is not the allocation's (other jobs run
 * on other cores), so it is given as unknown: the allocation's cores are the limit.
 */
final class AllocationHostProbe implements HostProbe {

  private final HostProbe node;
  private final long memoryBytes;
  private final LongSupplier ownMemory;

  /**
   * Caps {@code node}'s readings at {@code memoryBytes}.
   *
   * @param ownMemory the resident memory of this Berth, which runs inside the allocation too
   */
  AllocationHostProbe(HostProbe node, long memoryBytes, LongSupplier ownMemory) {
    this.node = node;
    this.memoryBytes = memoryBytes;
    this.ownMemory = ownMemory;
  }

  @Override
  public HostSnapshot read(Instant now, SortedMap<TaskId, Long> taskPids) {
    HostSnapshot s = node.read(now, taskPids);
    long used = ownMemory.getAsLong() + s.taskMemoryBytes().values().stream().mapToLong(Long::longValue).sum();
    long total = Math.min(s.totalMemoryBytes(), memoryBytes);
    long available = Math.min(s.availableMemoryBytes(), Math.max(0, memoryBytes - used));
    return new HostSnapshot(s.takenAt(), s.logicalCpus(), -1, total, available, s.taskMemoryBytes(), s.gpus());
  }
}
