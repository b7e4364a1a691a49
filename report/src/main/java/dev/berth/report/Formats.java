package dev.berth.report;

import dev.berth.core.units.ByteSize;
import dev.berth.core.units.DurationText;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How times, durations, sizes and result values are written in every rendering. */
final class Formats {

  /** The same form as {@code report.json}: ISO-8601 in UTC with milliseconds. */
  static final DateTimeFormatter ISO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final DateTimeFormatter HUMAN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private Formats() {}

  static String iso(Instant t) {
    return t == null ? "" : ISO.format(t);
  }

  static String human(Instant t) {
    return t == null ? "" : HUMAN.format(t);
  }

  static String duration(Duration d) {
    return d == null ? "" : DurationText.format(d.isNegative() ? Duration.ZERO : d);
  }

  static String bytes(long bytes) {
    return ByteSize.format(bytes);
  }

  /**
   * A result value as text: numbers as written in {@code result.json}, strings as they are, nested values
   * as the JSON text they were read as, null as empty.
   */
  static String value(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString(); // 10.0, never 1E+1
    }
    return String.valueOf(v);
  }

  /** A result value that holds a time in seconds (fedflow's {@code load_time}, {@code train_time}). */
  static String seconds(Object v) {
    BigDecimal s = Values.number(v);
    if (s == null) {
      return value(v);
    }
    return duration(Duration.ofMillis(s.movePointRight(3).setScale(0, java.math.RoundingMode.HALF_UP).longValue()));
  }
}
