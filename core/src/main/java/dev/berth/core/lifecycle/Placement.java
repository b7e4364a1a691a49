package dev.berth.core.lifecycle;

/**
 * Where an attempt runs and what was reserved for it.
 *
 * @param device {@code "cpu"}, a GPU id such as {@code "cuda:0"}, or {@code "cluster"} when a cluster places it
 * @param memoryBytes host memory reserved
 * @param milliCpus cores reserved, in thousandths
 * @param gpuMemoryBytes GPU memory reserved on {@code device} (0 on the CPU)
 */
public record Placement(String device, long memoryBytes, long milliCpus, long gpuMemoryBytes) {

  /** The device name of attempts a cluster places: Berth does not know, or choose, the node or GPU. */
  public static final String CLUSTER = "cluster";

  /** The device name for attempts that run on the CPU only. */
  public static final String CPU = "cpu";

  /** The GPU indices of the placement ({@code cuda:0,cuda:1} gives [0, 1]); empty on the CPU. */
  public java.util.List<Integer> gpuIndices() {
    if (!device.startsWith("cuda:")) {
      return java.util.List.of();
    }
    return java.util.Arrays.stream(device.split(",")).map(d -> Integer.parseInt(d.substring("cuda:".length()))).toList();
  }

  /** The device name of a placement on these GPUs: {@code cuda:0} or {@code cuda:0,cuda:1}. */
  public static String gpuDevice(java.util.List<Integer> indices) {
    return String.join(",", indices.stream().map(i -> "cuda:" + i).toList());
  }

  /** A CPU-only placement. */
  public static Placement cpu(long memoryBytes, long milliCpus) {
    return new Placement(CPU, memoryBytes, milliCpus, 0);
  }
}
