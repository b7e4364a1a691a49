package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The limit of the cluster that shapes what Berth submits, read once per executor from {@code scontrol
 * show config}: {@code MaxArraySize} (an array's indices must stay below it). A cluster that does not
 * say keeps Slurm's default; a refusal still splits an array ({@link ParallelSubmissions}), so a limit
 * read wrong costs submissions, never tasks.
 *
 * @param maxArraySize the cluster's {@code MaxArraySize}: at most this many elements in one array
 */
record ClusterLimits(int maxArraySize) {

  /** Slurm's own default {@code MaxArraySize}. */
  static final int DEFAULT_MAX_ARRAY_SIZE = 1001;
  /**
   * The most elements Berth puts in one array even where the cluster allows more: a larger array is one
   * squeue and sacct answer that large, and a refusal of it costs more to split.
   */
  static final int MAX_ELEMENTS = 1000;

  /** What Berth assumes when the cluster does not say. */
  static final ClusterLimits DEFAULTS = new ClusterLimits(DEFAULT_MAX_ARRAY_SIZE);

  /** At most this many tasks in one array. */
  int arrayElements() {
    return Math.max(1, Math.min(MAX_ELEMENTS, maxArraySize));
  }

  /** The limits {@code scontrol show config} printed; what it leaves out keeps the defaults. */
  static ClusterLimits parse(String config) {
    int maxArraySize = DEFAULT_MAX_ARRAY_SIZE;
    for (String line : config.lines().toList()) {
      int equals = line.indexOf('=');
      if (equals < 0) {
        continue;
      }
      String name = line.substring(0, equals).strip().toLowerCase(Locale.ROOT);
      OptionalInt value = number(line.substring(equals + 1));
      if (name.equals("maxarraysize") && value.isPresent()) {
        maxArraySize = value.getAsInt();
      }
    }
    return new ClusterLimits(maxArraySize);
  }

  /** Reads the limits; when scontrol cannot tell, the defaults. */
  static ClusterLimits read(CommandRunner runner, Duration timeout) {
    try {
      CommandRunner.Result result = runner.run(List.of("scontrol", "show", "config"), timeout);
      return result.succeeded() ? parse(result.stdout()) : DEFAULTS;
    } catch (IOException e) {
      return DEFAULTS;
    }
  }

  private static OptionalInt number(String text) {
    String t = text.strip();
    int end = 0;
    while (end < t.length() && Character.isDigit(t.charAt(end))) {
      end++;
    }
    if (end == 0 || end > 9) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(Integer.parseInt(t.substring(0, end)));
  }
}
