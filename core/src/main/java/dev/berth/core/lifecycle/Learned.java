package dev.berth.core.lifecycle;

import dev.berth.core.units.ByteSize;
import java.util.Objects;

/**
 * How an attempt's reservation of one kind of memory differs from what its task declared, because
 * Berth learned it from the measured peaks of the task's template, or because an out-of-memory in
 * the template raised it. Kept with the attempt's {@link TaskEvent.Launched launch} so consoles and
 * reports can say so.
 *
 * @param resource {@link #MEMORY} or {@link #GPU_MEMORY}
 * @param bytes what the attempt reserved
 * @param declaredBytes what the task declared
 * @param fromTasks how many finished tasks it was learned from; 0 when an out-of-memory raised it
 * @param basis the parameter values the tasks learned from share ({@code bs=256}), empty for the whole
 *     template; when raised, the task whose out-of-memory raised it
 */
public record Learned(String resource, long bytes, long declaredBytes, int fromTasks, String basis) {

  /** Host memory. */
  public static final String MEMORY = "memory";

  /** GPU memory. */
  public static final String GPU_MEMORY = "gpu-memory";

  /** Validates. */
  public Learned {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(basis, "basis");
    if (!resource.equals(MEMORY) && !resource.equals(GPU_MEMORY)) {
      throw new IllegalArgumentException("a learned request is memory or gpu-memory, not " + resource);
    }
    if (bytes < 0 || declaredBytes < 0 || fromTasks < 0) {
      throw new IllegalArgumentException("a learned request's figures must be >= 0");
    }
  }

  /** Whether an out-of-memory in the template raised it, rather than measured peaks lowering it. */
  public boolean raised() {
    return fromTasks == 0;
  }

  /**
   * For people: {@code memory 240 MiB learned from 5 tasks with bs=256 (declared 4 GiB)} or
   * {@code memory 6 GiB raised by an out-of-memory of train-3 (declared 4 GiB)}.
   */
  public String describe() {
    String what = resource.equals(MEMORY) ? "memory " : "GPU memory ";
    String how = raised()
        ? " raised by an out-of-memory of " + basis
        : " learned from " + fromTasks + (fromTasks == 1 ? " task" : " tasks") + (basis.isEmpty() ? "" : " with " + basis);
    return what + ByteSize.format(bytes) + how + " (declared " + ByteSize.format(declaredBytes) + ")";
  }
}
