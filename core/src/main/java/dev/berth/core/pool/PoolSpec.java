package dev.berth.core.pool;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One engine pool as a spec defines it under {@code pools:}. A call task carries its pool's settings
 * in its environment ({@link #POOL_VARIABLE}, {@link #SETTINGS_VARIABLE}), so the journalled spec holds
 * them and a resumed run starts the same engines.
 *
 * @param name the pool's name
 * @param setup {@code module:function} each engine runs once before its first call; empty for none
 * @param size the most engines per device; 0 for {@code auto}: as many as admission lets calls run at once
 * @param hwm the most calls in flight per engine (sent and not yet answered); an engine runs them one by one;
 *     0 for {@code auto}: one while the engine's calls are long, several while they are short
 * @param recycleAfter an engine is replaced after this many calls; 0 for never
 * @param recycleMemoryBytes an engine is replaced once its resident memory after a call exceeds this; 0 for never
 * @param scheme how the engine for a call is chosen
 * @param memoryBytes host memory each engine holds while it lives (its setup's model and data), beside
 *     what its calls reserve; 0 for none
 * @param gpuMemoryBytes GPU memory each engine holds on its device while it lives; 0 for none
 */
public record PoolSpec(String name, String setup, int size, int hwm, int recycleAfter, long recycleMemoryBytes,
    WorkerScheme scheme, long memoryBytes, long gpuMemoryBytes) {

  /** The variable naming a call task's pool. */
  public static final String POOL_VARIABLE = "BERTH_POOL";

  /** The variable holding a call task's pool settings, as {@link #text()} writes them. */
  public static final String SETTINGS_VARIABLE = "BERTH_POOL_SETTINGS";

  /** Validates. */
  public PoolSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(setup, "setup");
    Objects.requireNonNull(scheme, "scheme");
    if (size < 0) {
      throw new IllegalArgumentException("size must be auto or a whole number >= 1");
    }
    if (hwm < 0) {
      throw new IllegalArgumentException("hwm must be auto or a whole number >= 1");
    }
    if (recycleAfter < 0 || recycleMemoryBytes < 0 || memoryBytes < 0 || gpuMemoryBytes < 0) {
      throw new IllegalArgumentException("recycle-after, recycle-memory, memory and gpu-memory must not be negative");
    }
  }

  /** A pool whose engines hold no memory of their own between calls. */
  public PoolSpec(String name, String setup, int size, int hwm, int recycleAfter, long recycleMemoryBytes,
      WorkerScheme scheme) {
    this(name, setup, size, hwm, recycleAfter, recycleMemoryBytes, scheme, 0, 0);
  }

  /** A pool with every setting at its default: auto size, auto high-water mark, leastload, never recycled. */
  public static PoolSpec named(String name) {
    return new PoolSpec(name, "", 0, 0, 0, 0, WorkerScheme.LEASTLOAD);
  }

  /** The settings as one line, {@code key=value} separated by spaces; {@link #parse} reads it back. */
  public String text() {
    return "setup=" + setup + " size=" + size + " hwm=" + hwm + " recycle-after=" + recycleAfter
        + " recycle-memory=" + recycleMemoryBytes + " scheme=" + scheme + " memory=" + memoryBytes
        + " gpu-memory=" + gpuMemoryBytes;
  }

  /**
   * The pool {@code name} with the settings {@link #text()} wrote.
   *
   * @throws IllegalArgumentException when the text is not such a line
   */
  public static PoolSpec parse(String name, String text) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String part : text.trim().split(" +")) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not pool settings: " + text);
      }
      values.put(part.substring(0, eq), part.substring(eq + 1));
    }
    try {
      return new PoolSpec(name, values.getOrDefault("setup", ""), Integer.parseInt(values.getOrDefault("size", "0")),
          Integer.parseInt(values.getOrDefault("hwm", "1")), Integer.parseInt(values.getOrDefault("recycle-after", "0")),
          Long.parseLong(values.getOrDefault("recycle-memory", "0")),
          WorkerScheme.named(values.getOrDefault("scheme", "leastload")),
          Long.parseLong(values.getOrDefault("memory", "0")), Long.parseLong(values.getOrDefault("gpu-memory", "0")));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not pool settings: " + text, e);
    }
  }
}
