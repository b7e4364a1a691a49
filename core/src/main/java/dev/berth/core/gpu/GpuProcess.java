package dev.berth.core.gpu;

/**
 * A compute process a probe saw on a GPU.
 *
 * @param pid the process id as the driver reports it (host pid namespace)
 * @param usedMemoryBytes GPU memory the process holds, or {@link #UNKNOWN} when the driver does not
 *     say (some drivers and MIG setups report {@code [N/A]}); any other negative value is stored as
 *     unknown
 */
public record GpuProcess(long pid, long usedMemoryBytes) {

  /** The marker for a memory figure the driver did not report. */
  public static final long UNKNOWN = -1;

  /** Validates the pid and maps any negative memory figure to {@link #UNKNOWN}. */
  public GpuProcess {
    if (pid < 0) {
      throw new IllegalArgumentException("pid must be >= 0 but was " + pid);
    }
    if (usedMemoryBytes < 0) {
      usedMemoryBytes = UNKNOWN;
    }
  }

  /** Whether the process's memory figure is known. */
  public boolean usedMemoryKnown() {
    return usedMemoryBytes >= 0;
  }
}
