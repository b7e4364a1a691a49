package dev.berth.core.units;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats durations written as {@code 500ms}, {@code 2s}, {@code 10m}, {@code 1h},
 * {@code 1d} or combinations such as {@code 1h30m}. A bare number is seconds, as in fedflow's
 * {@code scheduler.interval}.
 */
public final class DurationText {

  private static final Pattern WHOLE = Pattern.compile("(?:[0-9]+(?:\\.[0-9]+)?(?:ms|s|m|h|d))+");
  private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|h|d)");
  private static final Pattern BARE = Pattern.compile("[0-9]+(?:\\.[0-9]+)?");

  private DurationText() {}

  /**
   * Parses a duration.
   *
   * @throws IllegalArgumentException naming the accepted forms when the text is not a duration
   */
  public static Duration parse(String text) {
    String t = text == null ? "" : text.strip().replace(" ", "");
    if (BARE.matcher(t).matches()) {
      return millis(new BigDecimal(t).multiply(BigDecimal.valueOf(1000)));
    }
    if (!WHOLE.matcher(t).matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration; use forms like 500ms, 2s, 10m, 1h or 1h30m");
    }
    BigDecimal total = BigDecimal.ZERO;
    Matcher m = PART.matcher(t);
    while (m.find()) {
      total = total.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unitMillis(m.group(2)))));
    }
    return millis(total);
  }

  /** Formats a duration compactly: {@code 1.5s}, {@code 250ms}, {@code 3m12s}, {@code 2h05m}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms < 1000) {
      return ms + "ms";
    }
    if (ms < 60_000) {
      return String.format(java.util.Locale.ROOT, "%.1fs", ms / 1000.0);
    }
    long s = ms / 1000;
    if (s < 3600) {
      return String.format(java.util.Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    return String.format(java.util.Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
  }

  private static long unitMillis(String unit) {
    switch (unit) {
      case "ms":
        return 1;
      case "s":
        return 1000;
      case "m":
        return 60_000;
      case "h":
        return 3_600_000;
      default:
        return 86_400_000;
    }
  }

  private static Duration millis(BigDecimal ms) {
    return Duration.ofMillis(ms.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact());
  }
}
