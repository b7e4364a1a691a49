package dev.berth.core.resources;

import dev.berth.core.units.ByteSize;
import java.util.Locale;
import java.util.function.LongFunction;

/** A resource a task can be refused for, with how its amounts are written for people. */
public enum Resource {
  /** Host memory, in bytes. */
  MEMORY("memory", ByteSize::format),
  /** Cores, in thousandths of a core. */
  CPUS("cpus", amount -> amount % 1000 == 0
      ? Long.toString(amount / 1000) : String.format(Locale.ROOT, "%.3f", amount / 1000.0)),
  /** Live task processes, a count. */
  PROCESSES("processes", Long::toString),
  /** GPU memory, in bytes. */
  GPU_MEMORY("gpu-memory", ByteSize::format),
  /** Whole GPUs, a count. */
  GPUS("gpus", Long::toString),
  /** Berth tasks on one device, a count. */
  DEVICE_TASKS("tasks-per-device", Long::toString),
  /** CPU utilization, in thousandths. */
  CPU_UTILIZATION("cpu-utilization", amount -> String.format(Locale.ROOT, "%.1f%%", amount / 10.0)),
  /** The host ledger as a whole: it cannot tell now what other runs hold, so no start may take anything. */
  HOST_LEDGER("host-ledger", Long::toString);

  private final String key;
  private final LongFunction<String> format;

  Resource(String key, LongFunction<String> format) {
    this.key = key;
    this.format = format;
  }

  /** The name used in reports and status output. */
  public String key() {
    return key;
  }

  /** Formats an amount of this resource. */
  public String format(long amount) {
    return format.apply(amount);
  }
}
