package dev.berth.core.model;

import dev.berth.core.units.ByteSize;
import dev.berth.core.gpu.PlacementPolicyName;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a task asks of the GPUs: a share of one device's memory, or whole devices, optionally
 * pinned to one device or limited to some, and the placement policy to choose among them.
 *
 * @param memoryBytes memory on one device (fedflow's estimate_cuda_memory); 0 when the task asks
 *     for whole devices or no GPU
 * @param wholeDevices whole devices used exclusively (for multi-GPU tasks); 0 for a share
 * @param pinned the one device the task must run on ({@code device: cuda:N}), if any
 * @param targets the devices the task may use ({@code targets: [0, 1]}); empty means all
 * @param placement the placement policy for this task, or empty for the run's
 * @param blacklist whether a retry avoids the devices where the task failed while others are left
 *     (ipyparallel's rule, without giving up when none is left)
 */
public record GpuRequest(
    long memoryBytes, int wholeDevices, OptionalInt pinned, List<Integer> targets, Optional<PlacementPolicyName> placement,
    boolean blacklist) {

  /** No GPU: the task runs on the CPU. */
  public static final GpuRequest NONE = new GpuRequest(0, 0, OptionalInt.empty(), List.of(), Optional.empty(), true);

  /** Validates. */
  public GpuRequest {
    Objects.requireNonNull(pinned, "pinned");
    Objects.requireNonNull(placement, "placement");
    targets = List.copyOf(targets);
    if (memoryBytes < 0 || wholeDevices < 0) {
      throw new IllegalArgumentException("gpu-memory and gpus must be >= 0");
    }
    if (memoryBytes > 0 && wholeDevices > 0) {
      throw new IllegalArgumentException("a task asks for gpu-memory (a share of one device) or gpus (whole"
          + " devices), not both");
    }
    if (pinned.isPresent() && wholeDevices > 1) {
      throw new IllegalArgumentException("a task pinned to one device cannot ask for " + wholeDevices + " gpus");
    }
    if (pinned.isPresent() && !targets.isEmpty() && !targets.contains(pinned.getAsInt())) {
      throw new IllegalArgumentException("device cuda:" + pinned.getAsInt() + " is not among targets " + targets);
    }
  }

  /** A share of one device. */
  public static GpuRequest share(long memoryBytes) {
    return new GpuRequest(memoryBytes, 0, OptionalInt.empty(), List.of(), Optional.empty(), true);
  }

  /** Whole devices. */
  public static GpuRequest whole(int devices) {
    return new GpuRequest(0, devices, OptionalInt.empty(), List.of(), Optional.empty(), true);
  }

  /** Whether the task needs a GPU at all. */
  public boolean wantsGpu() {
    return memoryBytes > 0 || wholeDevices > 0;
  }

  /**
   * For people, as plans show it: {@code "gpu-mem 8 GiB of [0, 1]"}, {@code "2 whole gpu on cuda:1"};
   * empty when the task needs no GPU.
   */
  public String describe() {
    if (!wantsGpu()) {
      return "";
    }
    String what = wholeDevices > 0 ? wholeDevices + " whole gpu" : "gpu-mem " + ByteSize.format(memoryBytes);
    String where = pinned.isPresent() ? " on cuda:" + pinned.getAsInt() : targets.isEmpty() ? "" : " of " + targets;
    return what + where;
  }

  /** Whether device {@code index} is allowed by the pin and the targets. */
  public boolean allows(int index) {
    if (pinned.isPresent()) {
      return pinned.getAsInt() == index;
    }
    return targets.isEmpty() || targets.contains(index);
  }

  /** This request pinned to {@code index}. */
  public GpuRequest pinnedTo(int index) {
    return new GpuRequest(memoryBytes, wholeDevices, OptionalInt.of(index), List.of(), placement, blacklist);
  }

  /** This request with another share of memory. */
  public GpuRequest withMemory(long bytes) {
    return new GpuRequest(bytes, wholeDevices, pinned, targets, placement, blacklist);
  }
}
