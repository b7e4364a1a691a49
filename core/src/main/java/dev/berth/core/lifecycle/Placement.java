package dev.berth.core.lifecycle;

/**
 * Where an attempt runs and what was reserved for it.
 *
 * @param device {@code "cpu"} or a GPU id such as {@code "cuda:0"}
 * @param memoryBytes host memory reserved
 * @param milliCpus cores reserved, in thousandths
 * @param gpuMemoryBytes GPU memory reserved on {@code device} (0 on the CPU)
 */
public record Placement(String device, long memoryBytes, long milliCpus, long gpuMemoryBytes) {

  /** The device name for attempts that run on the CPU only. */
  public static final String CPU = "cpu";

  /** A CPU-only placement. */
  public static Placement cpu(long memoryBytes, long milliCpus) {
    return new Placement(CPU, memoryBytes, milliCpus, 0);
  }
}
