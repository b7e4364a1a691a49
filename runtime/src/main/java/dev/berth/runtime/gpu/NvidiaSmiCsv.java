package dev.berth.runtime.gpu;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuDevices;
import dev.berth.core.gpu.GpuProcess;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Parses what {@code nvidia-smi --format=csv,noheader,nounits} prints for the two queries Berth
 * runs. Pure: no process, no I/O.
 *
 * <p>Fields are separated by commas and padded with spaces; memory is in MiB; utilization is a
 * percentage. A field the driver cannot give reads {@code [N/A]}, {@code [Not Supported]},
 * {@code [Unknown Error]}, {@code [Insufficient Permissions]} and the like (any bracketed value, or
 * {@code N/A}, or {@code ERR!}): it is taken as unknown. With MIG enabled the GPU query lists the
 * parent GPU (utilization {@code [N/A]}) and compute processes carry the parent's UUID with
 * {@code [N/A]} memory.
 */
public final class NvidiaSmiCsv {

  /** The GPU query: one line per GPU. */
  public static final List<String> QUERY_GPUS = List.of(
      "nvidia-smi",
      "--query-gpu=index,uuid,name,memory.total,memory.used,memory.free,utilization.gpu",
      "--format=csv,noheader,nounits");

  /** The compute process query: one line per process and GPU. */
  public static final List<String> QUERY_COMPUTE_APPS = List.of(
      "nvidia-smi",
      "--query-compute-apps=gpu_uuid,pid,used_memory",
      "--format=csv,noheader,nounits");

  /** What nvidia-smi prints (with exit code 6) on a machine whose driver sees no GPU. */
  public static final String NO_DEVICES = "No devices were found";

  private static final long MIB = 1L << 20;
  private static final int GPU_FIELDS = 7;
  private static final int APP_FIELDS = 3;

  private NvidiaSmiCsv() {}

  /**
   * A compute process line.
   *
   * @param gpuUuid the UUID of the GPU the process runs on (the parent GPU under MIG)
   * @param pid the process id
   * @param usedMemoryBytes its GPU memory, or -1 when unknown
   */
  public record ComputeApp(String gpuUuid, long pid, long usedMemoryBytes) {
    /** Validates. */
    public ComputeApp {
      Objects.requireNonNull(gpuUuid, "gpuUuid");
    }
  }

  /**
   * The GPUs of a {@link #QUERY_GPUS} answer, sorted by index, without processes. An answer that
   * says {@value #NO_DEVICES} gives an empty list.
   *
   * <p>Unknown memory figures are derived when possible (used = total - free, free = total - used);
   * when neither free nor used is known the device is taken as full, so nothing is placed on it.
   * An unknown total makes a device with no memory.
   *
   * @throws IllegalArgumentException naming the line when the output is not in the expected format
   */
  public static List<GpuDevice> parseGpus(String stdout) {
    List<GpuDevice> devices = new ArrayList<>();
    List<String> lines = lines(stdout);
    if (saysNoDevices(lines)) {
      return List.of();
    }
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n);
      String[] f = fields(line, GPU_FIELDS, n);
      int index = (int) integer(f[0], "index", line, n);
      String uuid = f[1];
      String name = unknown(f[2]) ? "" : f[2];
      long total = mib(f[3], "memory.total", line, n);
      long used = mib(f[4], "memory.used", line, n);
      long free = mib(f[5], "memory.free", line, n);
      double utilization = percent(f[6], "utilization.gpu", line, n);
      total = Math.max(total, 0);
      if (used < 0 && free >= 0) {
        used = Math.max(0, total - free);
      } else if (free < 0 && used >= 0) {
        free = Math.max(0, total - used);
      } else if (free < 0) {
        used = total;
        free = 0;
      }
      devices.add(new GpuDevice(index, uuid, name, total, used, free, utilization, false, List.of()));
    }
    try {
      return GpuDevices.sortedByIndex(devices);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("nvidia-smi output: " + e.getMessage(), e);
    }
  }

  /**
   * The processes of a {@link #QUERY_COMPUTE_APPS} answer, in the order printed. Lines whose pid is
   * not known are skipped.
   *
   * @throws IllegalArgumentException naming the line when the output is not in the expected format
   */
  public static List<ComputeApp> parseComputeApps(String stdout) {
    List<ComputeApp> apps = new ArrayList<>();
    List<String> lines = lines(stdout);
    if (saysNoDevices(lines) || (lines.size() == 1 && lines.get(0).toLowerCase(Locale.ROOT).startsWith("no running"))) {
      return List.of();
    }
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n);
      String[] f = fields(line, APP_FIELDS, n);
      if (unknown(f[1])) {
        continue;
      }
      apps.add(new ComputeApp(f[0], integer(f[1], "pid", line, n), mib(f[2], "used_memory", line, n)));
    }
    return List.copyOf(apps);
  }

  /**
   * The devices with each process attached to the device with its GPU UUID. Processes on a UUID no
   * device has (e.g. a MIG instance UUID) are left out.
   */
  public static List<GpuDevice> attach(List<GpuDevice> devices, List<ComputeApp> apps) {
    Map<String, List<GpuProcess>> byUuid = new HashMap<>();
    for (GpuDevice d : devices) {
      byUuid.put(d.uuid(), new ArrayList<>());
    }
    for (ComputeApp app : apps) {
      List<GpuProcess> processes = byUuid.get(app.gpuUuid());
      if (processes != null) {
        processes.add(new GpuProcess(app.pid(), app.usedMemoryBytes()));
      }
    }
    return devices.stream().map(d -> d.withProcesses(byUuid.get(d.uuid()))).toList();
  }

  /** Whether the output is nvidia-smi's "No devices were found". */
  public static boolean saysNoDevices(String output) {
    return saysNoDevices(lines(output));
  }

  /**
   * The first non-blank line of a failed command's output (stdout first: nvidia-smi prints its
   * errors there), or {@code "no output"}.
   */
  public static String firstLine(String stdout, String stderr) {
    for (String text : List.of(stdout, stderr)) {
      List<String> lines = lines(text);
      if (!lines.isEmpty()) {
        return lines.get(0);
      }
    }
    return "no output";
  }

  private static boolean saysNoDevices(List<String> lines) {
    return lines.size() == 1 && lines.get(0).equalsIgnoreCase(NO_DEVICES);
  }

  /** The non-blank lines, stripped. */
  static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    for (String line : text.split("\\R")) {
      if (!line.isBlank()) {
        lines.add(line.strip());
      }
    }
    return lines;
  }

  private static String[] fields(String line, int expected, int n) {
    String[] f = line.split(",", -1);
    if (f.length != expected) {
      throw new IllegalArgumentException(
          "nvidia-smi output line " + (n + 1) + ": expected " + expected + " comma-separated fields but found "
              + f.length + ": '" + line + "'");
    }
    for (int i = 0; i < f.length; i++) {
      f[i] = f[i].strip();
    }
    return f;
  }

  /** Whether a field is one of the driver's "no value" markers. */
  static boolean unknown(String field) {
    String f = field.strip();
    return f.isEmpty() || (f.startsWith("[") && f.endsWith("]")) || f.equalsIgnoreCase("N/A") || f.equals("ERR!");
  }

  private static long integer(String field, String what, String line, int n) {
    try {
      long value = Long.parseLong(field);
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw bad(what, field, line, n);
  }

  /** MiB to bytes, -1 for an unknown marker; fractions are accepted and rounded to a byte. */
  private static long mib(String field, String what, String line, int n) {
    if (unknown(field)) {
      return -1;
    }
    try {
      BigDecimal mib = new BigDecimal(field);
      if (mib.signum() >= 0) {
        return mib.multiply(BigDecimal.valueOf(MIB)).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // reported below
    }
    throw bad(what + " (MiB)", field, line, n);
  }

  /** A percentage as a fraction, -1 for an unknown marker. */
  private static double percent(String field, String what, String line, int n) {
    if (unknown(field)) {
      return GpuDevice.UNKNOWN_UTILIZATION;
    }
    try {
      double percent = Double.parseDouble(field);
      if (percent >= 0 && !Double.isInfinite(percent)) {
        return percent / 100;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw bad(what + " (%)", field, line, n);
  }

  private static IllegalArgumentException bad(String what, String field, String line, int n) {
    return new IllegalArgumentException(
        "nvidia-smi output line " + (n + 1) + ": " + what + " '" + field + "' is not a number: '" + line + "'");
  }
}
