package dev.berth.core.resources;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** The memory a utilization limit keeps free, shared by the host and the device budgets. */
final class MemoryFloor {

  private MemoryFloor() {}

  /**
   * total * (1 - limit) rounded up, in decimal: the limit is written as a decimal such as 0.7, and
   * in binary floating point 1 - 0.7 is a hair above 0.3, which would refuse the exact boundary.
   */
  static long byLimit(long total, double limit) {
    return BigDecimal.valueOf(total)
        .multiply(BigDecimal.ONE.subtract(BigDecimal.valueOf(limit)))
        .setScale(0, RoundingMode.CEILING)
        .longValueExact();
  }
}
