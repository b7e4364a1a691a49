package dev.berth.core.gpu;

import java.time.Instant;

/**
 * What a placement policy sees of one candidate device in one scheduling pass.
 *
 * @param index the device index ({@code cuda:<index>})
 * @param totalMemoryBytes device memory
 * @param freeMemoryBytes memory the device budget considers free: the probe's free memory minus what Berth
 *     reserved for its tasks on the device but the probe cannot see them use yet (clamped to
 *     [0, total])
 * @param reservedMemoryBytes memory Berth has reserved on the device for its running tasks
 * @param berthTasks how many Berth tasks run on the device
 * @param lastPlacedAt when Berth last placed a task on the device, or null if it never did
 * @param freeSince since when the probe history shows the device continuously having enough free
 *     memory for the request, or null if unknown
 */
public record DeviceState(
    int index,
    long totalMemoryBytes,
    long freeMemoryBytes,
    long reservedMemoryBytes,
    int berthTasks,
    Instant lastPlacedAt,
    Instant freeSince) {

  /** Validates and clamps free memory into [0, total]. */
  public DeviceState {
    if (index < 0) {
      throw new IllegalArgumentException("device index must be >= 0 but was " + index);
    }
    if (totalMemoryBytes < 0 || reservedMemoryBytes < 0 || berthTasks < 0) {
      throw new IllegalArgumentException(
          "device " + index + ": total memory, reserved memory and task count must be >= 0");
    }
    freeMemoryBytes = Math.max(0, Math.min(freeMemoryBytes, totalMemoryBytes));
  }

  /** A device with no Berth tasks, no reservations and no history. */
  public static DeviceState of(int index, long totalMemoryBytes, long freeMemoryBytes) {
    return new DeviceState(index, totalMemoryBytes, freeMemoryBytes, 0, 0, null, null);
  }

  /** The device id: {@code cuda:<index>}. */
  public String id() {
    return GpuDevice.id(index);
  }

  /** Whether {@code bytes} fit in the free memory. */
  public boolean fits(long bytes) {
    return bytes <= freeMemoryBytes;
  }

  /** The same state with another number of Berth tasks. */
  public DeviceState withBerthTasks(int tasks) {
    return new DeviceState(index, totalMemoryBytes, freeMemoryBytes, reservedMemoryBytes, tasks, lastPlacedAt, freeSince);
  }

  /** The same state with another reservation total. */
  public DeviceState withReserved(long bytes) {
    return new DeviceState(index, totalMemoryBytes, freeMemoryBytes, bytes, berthTasks, lastPlacedAt, freeSince);
  }

  /** The same state with another last placement time (null: never). */
  public DeviceState withLastPlacedAt(Instant at) {
    return new DeviceState(index, totalMemoryBytes, freeMemoryBytes, reservedMemoryBytes, berthTasks, at, freeSince);
  }

  /** The same state with another free-since time (null: unknown). */
  public DeviceState withFreeSince(Instant since) {
    return new DeviceState(index, totalMemoryBytes, freeMemoryBytes, reservedMemoryBytes, berthTasks, lastPlacedAt, since);
  }
}
