package dev.berth.core.resources;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the GPU probe saw, with what the runtime worked out from it.
 *
 * @param devices the usable devices, sorted by index (empty on a host without GPUs)
 * @param taskMemoryBytes GPU memory each running Berth task uses, summed over its processes
 * @param stableSince for each device index, since when its free memory has not dropped
 */
public record GpuReading(
    List<GpuDevice> devices, SortedMap<TaskId, Long> taskMemoryBytes, SortedMap<Integer, Instant> stableSince) {

  /** No GPUs. */
  public static final GpuReading NONE = new GpuReading(List.of(), new TreeMap<>(), new TreeMap<>());

  /** Copies and sorts. */
  public GpuReading {
    devices = devices.stream().sorted(java.util.Comparator.comparingInt(GpuDevice::index)).toList();
    taskMemoryBytes = Collections.unmodifiableSortedMap(new TreeMap<>(taskMemoryBytes));
    stableSince = Collections.unmodifiableSortedMap(new TreeMap<>(stableSince));
  }

  /** Devices as read, with no task usage or history known. */
  public static GpuReading of(List<GpuDevice> devices) {
    return new GpuReading(devices, new TreeMap<>(), new TreeMap<>());
  }
}
