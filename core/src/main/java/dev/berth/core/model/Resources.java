package dev.berth.core.model;

/**
 * What one task asks of the host: memory in bytes and CPU cores in thousandths of a core, so that
 * fractional requests ({@code cpus: 0.5}) add up exactly.
 */
public record Resources(long memoryBytes, long milliCpus) {

  /** Validates that both amounts are non-negative. */
  public Resources {
    if (memoryBytes < 0) {
      throw new IllegalArgumentException("memoryBytes must be >= 0 but was " + memoryBytes);
    }
    if (milliCpus < 0) {
      throw new IllegalArgumentException("milliCpus must be >= 0 but was " + milliCpus);
    }
  }

  /** Converts a core count such as {@code 1.5} to thousandths of a core. */
  public static long milliCpus(double cpus) {
    if (Double.isNaN(cpus) || cpus < 0 || cpus > 1_000_000) {
      throw new IllegalArgumentException("cpus must be a number >= 0 but was " + cpus);
    }
    return Math.round(cpus * 1000);
  }

  /** The CPU request as a core count, e.g. {@code 0.5}. */
  public double cpus() {
    return milliCpus / 1000.0;
  }
}
