package dev.berth.core.pool;

import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Suggestions;
import dev.berth.core.settings.ValueParser;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One engine pool as a spec defines it under {@code pools:}. A call or Java task carries its pool,
 * name and settings, as its {@code pool} key ({@code TaskKeys.POOL}), so the journalled spec holds
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

  /** The keys of {@link #settings()}: the name, then those a spec's {@code pools:} gives these settings under. */
  public static final List<String> SETTINGS = List.of("name", "setup", "size", "hwm", "recycle-after",
      "recycle-memory", "scheme", "memory", "gpu-memory");

  /**
   * Reads a pool from its {@link #settings()}, or from its name alone (every setting at its default);
   * a setting left out takes its default too.
   */
  public static final ValueParser<PoolSpec> PARSER = value -> {
    if (!(value instanceof Map<?, ?> map)) {
      return named(Parsers.TEXT.parse(value));
    }
    @SuppressWarnings("unchecked") // a parsed mapping has text keys
    Map<String, ?> settings = (Map<String, ?>) map;
    for (String key : settings.keySet()) {
      if (!SETTINGS.contains(key)) {
        throw new InvalidValue(null, key, Suggestions.unknownKey(key, SETTINGS));
      }
    }
    if (settings.get("name") == null) {
      throw new InvalidValue(null, "name", "is required: the pool's name");
    }
    return new PoolSpec(setting(settings, "name", Parsers.TEXT, null), setting(settings, "setup", Parsers.TEXT, ""),
        setting(settings, "size", Parsers.wholeNumber(0), 0), setting(settings, "hwm", Parsers.wholeNumber(0), 0),
        setting(settings, "recycle-after", Parsers.wholeNumber(0), 0),
        setting(settings, "recycle-memory", Parsers.MEMORY, 0L),
        setting(settings, "scheme", Parsers.oneOf(WorkerScheme.values()), WorkerScheme.LEASTLOAD),
        setting(settings, "memory", Parsers.MEMORY, 0L), setting(settings, "gpu-memory", Parsers.MEMORY, 0L));
  };

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

  /**
   * The name and settings as a mapping of text and whole numbers, by {@link #SETTINGS} in sorted order:
   * what the journal stores, which {@link #PARSER} reads back. A size or high-water mark of 0 is auto.
   */
  public SortedMap<String, Object> settings() {
    SortedMap<String, Object> settings = new TreeMap<>();
    settings.put("name", name);
    settings.put("setup", setup);
    settings.put("size", size);
    settings.put("hwm", hwm);
    settings.put("recycle-after", recycleAfter);
    settings.put("recycle-memory", recycleMemoryBytes);
    settings.put("scheme", scheme.toString());
    settings.put("memory", memoryBytes);
    settings.put("gpu-memory", gpuMemoryBytes);
    return Collections.unmodifiableSortedMap(settings);
  }

  /** The settings as one line, {@code key=value} separated by spaces; {@link #parse} reads it back. */
  public String text() {
    return "setup=" + setup + " size=" + size + " hwm=" + hwm + " recycle-after=" + recycleAfter
        + " recycle-memory=" + recycleMemoryBytes + " scheme=" + scheme + " memory=" + memoryBytes
        + " gpu-memory=" + gpuMemoryBytes;
  }

  /**
   * The pool {@code name} with the settings {@link #text()} wrote, as older journals hold them in a
   * task's environment.
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

  /**
   * The value under {@code key} of {@code written}, or {@code otherwise} when it is not there.
   *
   * @throws InvalidValue placed under {@code key} when the value breaks its rule
   */
  static <T> T setting(Map<String, ?> written, String key, ValueParser<T> parser, T otherwise) {
    Object v = written.get(key);
    if (v == null) {
      return otherwise;
    }
    try {
      return parser.parse(v);
    } catch (InvalidValue e) {
      throw e.under(key);
    }
  }
}
