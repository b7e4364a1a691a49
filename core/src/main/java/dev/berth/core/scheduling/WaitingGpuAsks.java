package dev.berth.core.scheduling;

import dev.berth.core.model.GpuRequest;
import java.util.Collection;
import java.util.List;

/**
 * The GPU memory the tasks of one pass wait for, as far as placement needs it: the largest ask of
 * any task but the one being placed, so that a policy that spreads tasks over the devices can keep
 * room for it ({@link dev.berth.core.gpu.PlacementRequest#keepRoomBytes}). The waiting tasks are the
 * ready ones and the loaded two-stage ones; each counts with the GPU memory it declares. Worked out
 * once per pass, on the first placement that asks.
 */
final class WaitingGpuAsks {

  private final List<Collection<TaskRecord>> waiting;
  private boolean known;
  private TaskRecord largest;
  private long largestBytes;
  private long secondBytes;

  WaitingGpuAsks(List<Collection<TaskRecord>> waiting) {
    this.waiting = waiting;
  }

  /** The largest GPU memory a waiting task other than {@code r} declares, 0 when none does. */
  long besides(TaskRecord r) {
    if (!known) {
      waiting.forEach(tasks -> tasks.forEach(this::count));
      known = true;
    }
    return r == largest ? secondBytes : largestBytes;
  }

  private void count(TaskRecord r) {
    GpuRequest gpu = r.spec().gpu();
    long bytes = gpu.wantsGpu() && gpu.wholeDevices() == 0 ? gpu.memoryBytes() : 0;
    if (bytes > largestBytes) {
      secondBytes = largestBytes;
      largestBytes = bytes;
      largest = r;
    } else if (bytes > secondBytes && r != largest) {
      secondBytes = bytes;
    }
  }
}
