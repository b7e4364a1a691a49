package dev.berth.core.resources;

import dev.berth.core.units.ByteSize;
import java.util.Locale;

/** A resource a task can be refused for, with how its amounts are written for people. */
public enum Resource {
  /** Host memory, in bytes. */
  MEMORY("memory") {
    @Override
    public String format(long amount) {
      return ByteSize.format(amount);
    }
  },
  /** Cores, in thousandths of a core. */
  CPUS("cpus") {
    @Override
    public String format(long amount) {
      return amount % 1000 == 0 ? Long.toString(amount / 1000) : String.format(Locale.ROOT, "%.3f", amount / 1000.0);
    }
  },
  /** Live task processes, a count. */
  PROCESSES("processes") {
    @Override
    public String format(long amount) {
      return Long.toString(amount);
    }
  },
  /** GPU memory, in bytes. */
  GPU_MEMORY("gpu-memory") {
    @Override
    public String format(long amount) {
      return ByteSize.format(amount);
    }
  },
  /** Whole GPUs, a count. */
  GPUS("gpus") {
    @Override
    public String format(long amount) {
      return Long.toString(amount);
    }
  },
  /** Berth tasks on one device, a count. */
  DEVICE_TASKS("tasks-per-device") {
    @Override
    public String format(long amount) {
      return Long.toString(amount);
    }
  },
  /** CPU utilization, in thousandths. */
  CPU_UTILIZATION("cpu-utilization") {
    @Override
    public String format(long amount) {
      return String.format(Locale.ROOT, "%.1f%%", amount / 10.0);
    }
  };

  private final String key;

  Resource(String key) {
    this.key = key;
  }

  /** The name used in reports and status output. */
  public String key() {
    return key;
  }

  /** Formats an amount of this resource. */
  public abstract String format(long amount);
}
