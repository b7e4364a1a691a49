package dev.berth.report;

import java.math.BigDecimal;
import java.util.Map;

/** Result values read as numbers where they are numbers, for sorting and for bars. */
final class Values {

  private Values() {}

  /** The value as a number: JSON numbers, and strings that hold a plain decimal number; otherwise null. */
  static BigDecimal number(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    if (v instanceof java.math.BigInteger i) {
      return new BigDecimal(i);
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
    }
    if (v instanceof String s) {
      try {
        return new BigDecimal(s.strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  /** One task's results out of all, empty when it has none. */
  static Map<String, ?> resultsOf(Map<String, ? extends Map<String, ?>> all, String taskId) {
    Map<String, ?> r = all.get(taskId);
    return r == null ? Map.of() : r;
  }
}
