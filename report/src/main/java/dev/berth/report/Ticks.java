package dev.berth.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Round axis steps for the charts: time since the run started, and bytes. */
final class Ticks {

  private static final long S = 1000;
  private static final long M = 60 * S;
  private static final long H = 60 * M;
  private static final long[] TIME_STEPS = {
    1, 2, 5, 10, 20, 50, 100, 200, 500, S, 2 * S, 5 * S, 10 * S, 15 * S, 30 * S, M, 2 * M, 5 * M, 10 * M,
    15 * M, 30 * M, H, 2 * H, 3 * H, 6 * H, 12 * H, 24 * H, 48 * H, 7 * 24 * H, 14 * 24 * H, 28 * 24 * H
  };

  private Ticks() {}

  /** Tick positions in milliseconds from 0 to {@code spanMs}, at most about {@code most} of them. */
  static List<Long> time(long spanMs, int most) {
    long step = TIME_STEPS[TIME_STEPS.length - 1];
    for (long s : TIME_STEPS) {
      if (spanMs / s <= most) {
        step = s;
        break;
      }
    }
    List<Long> ticks = new ArrayList<>();
    for (long t = 0; t <= spanMs; t += step) {
      ticks.add(t);
    }
    return ticks;
  }

  /** A tick label: {@code 0}, {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1m30s}, {@code 1h}, {@code 2h30m}. */
  static String timeLabel(long ms) {
    if (ms == 0) {
      return "0";
    }
    if (ms < S) {
      return ms + "ms";
    }
    if (ms < M) {
      return ms % S == 0 ? ms / S + "s" : String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
    if (ms < H) {
      long s = (ms % M) / S;
      return ms / M + "m" + (s == 0 ? "" : s + "s");
    }
    long m = (ms % H) / M;
    return ms / H + "h" + (m == 0 ? "" : m + "m");
  }

  /** A step in bytes for an axis up to {@code max}: a power of two times a power of 1024, for round labels. */
  static long bytesStep(long max, int most) {
    long step = 1;
    while (step < Long.MAX_VALUE / 2 && max / step > most) {
      step *= 2;
    }
    return step;
  }
}
