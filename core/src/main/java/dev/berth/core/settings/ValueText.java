package dev.berth.core.settings;

import java.time.Duration;
import java.util.List;

/** Values written the way a user writes them in a config file, so that the text reads back. */
public final class ValueText {

  private ValueText() {}

  /** Bytes in the largest unit that divides them exactly, e.g. {@code 2GB} or {@code 512MiB}. */
  public static String bytes(long bytes) {
    String[] names = {"PB", "PiB", "TB", "TiB", "GB", "GiB", "MB", "MiB", "kB", "KiB"};
    long[] sizes = {1_000_000_000_000_000L, 1L << 50, 1_000_000_000_000L, 1L << 40, 1_000_000_000L, 1L << 30,
        1_000_000L, 1L << 20, 1_000L, 1L << 10};
    String best = Long.toString(bytes);
    long bestNumber = bytes;
    for (int i = 0; i < names.length && bytes != 0; i++) {
      if (bytes % sizes[i] == 0 && bytes / sizes[i] < bestNumber) {
        bestNumber = bytes / sizes[i];
        best = bestNumber + names[i];
      }
    }
    return best;
  }

  /** A duration in whole units, e.g. {@code 1s}, {@code 500ms} or {@code 1h30m}. */
  public static String duration(Duration duration) {
    long ms = duration.toMillis();
    if (ms == 0) {
      return "0s";
    }
    String[] names = {"d", "h", "m", "s", "ms"};
    long[] sizes = {86_400_000, 3_600_000, 60_000, 1_000, 1};
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      if (ms >= sizes[i]) {
        out.append(ms / sizes[i]).append(names[i]);
        ms %= sizes[i];
      }
    }
    return out.toString();
  }

  /** A list as a flow sequence, e.g. {@code [a, b]}. */
  public static String list(List<?> items) {
    return "[" + String.join(", ", items.stream().map(String::valueOf).toList()) + "]";
  }
}
