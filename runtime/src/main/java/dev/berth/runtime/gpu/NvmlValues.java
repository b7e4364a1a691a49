package dev.berth.runtime.gpu;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuProcess;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Decodes what NVML writes into the buffers of {@link NvmlLibrary}. Pure: no native calls. */
public final class NvmlValues {

  /** {@code NVML_VALUE_NOT_AVAILABLE}: an unsigned long long of all ones, "unknown". */
  public static final long NOT_AVAILABLE = 0xFFFFFFFFFFFFFFFFL;

  /** Size of {@code nvmlProcessInfo_t} (v2 and v3 entry points). */
  public static final int PROCESS_INFO_BYTES = 24;

  /** Size of {@code nvmlProcessInfo_v1_t} (the unversioned entry point). */
  public static final int PROCESS_INFO_V1_BYTES = 16;

  /** {@code NVML_DEVICE_NAME_V2_BUFFER_SIZE} and {@code NVML_DEVICE_UUID_V2_BUFFER_SIZE}. */
  public static final int STRING_BUFFER_BYTES = 96;

  private NvmlValues() {}

  /**
   * An unsigned byte count as a Java long: -1 for {@link #NOT_AVAILABLE}, and for values beyond
   * {@link Long#MAX_VALUE} (no device has 8 EiB; such a value is garbage).
   */
  public static long bytes(long unsigned) {
    return unsigned < 0 ? -1 : unsigned;
  }

  /** An unsigned percentage as a fraction in [0, 1], or unknown (-1) when it is above 100. */
  public static double percent(int unsigned) {
    long value = Integer.toUnsignedLong(unsigned);
    return value > 100 ? GpuDevice.UNKNOWN_UTILIZATION : value / 100.0;
  }

  /** A NUL-terminated UTF-8 string from a fixed-size buffer. */
  public static String cString(byte[] buffer) {
    int end = 0;
    while (end < buffer.length && buffer[end] != 0) {
      end++;
    }
    return new String(buffer, 0, end, StandardCharsets.UTF_8).strip();
  }

  /**
   * The first {@code count} process entries of a buffer of {@code stride}-byte
   * {@code nvmlProcessInfo} structures in the machine's byte order: pid (uint at 0) and used GPU
   * memory (ulong at 8; {@link #NOT_AVAILABLE} becomes {@link GpuProcess#UNKNOWN}).
   */
  public static List<GpuProcess> processes(byte[] buffer, int count, int stride) {
    return processes(buffer, count, stride, ByteOrder.nativeOrder());
  }

  static List<GpuProcess> processes(byte[] buffer, int count, int stride, ByteOrder order) {
    if (stride < PROCESS_INFO_V1_BYTES) {
      throw new IllegalArgumentException("an nvmlProcessInfo entry has at least 16 bytes, not " + stride);
    }
    ByteBuffer b = ByteBuffer.wrap(buffer).order(order);
    int entries = Math.max(0, Math.min(count, buffer.length / stride));
    List<GpuProcess> processes = new ArrayList<>(entries);
    for (int i = 0; i < entries; i++) {
      long pid = Integer.toUnsignedLong(b.getInt(i * stride));
      long used = bytes(b.getLong(i * stride + 8));
      processes.add(new GpuProcess(pid, used));
    }
    return processes;
  }
}
