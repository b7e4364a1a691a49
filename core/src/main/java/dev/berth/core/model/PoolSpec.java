package dev.berth.core.model;

import dev.berth.core.pool.WorkerScheme;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Suggestions;
import dev.berth.core.settings.ValueParser;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One engine pool as a spec defines it under {@code pools:} or the Java API does: its name and one
 * value per key of {@link PoolKeys}, where each key is declared with its default, parser and docs.
 * Both read it from the values as written with {@link #read}, so both check the same rules. A call or
 * Java task carries its pool ({@link #carried()}), name and settings, as its {@code pool} key
 * ({@code TaskKeys.POOL}), so the journalled spec holds them and a resumed run starts the same engines.
 */
public final class PoolSpec extends KeyedSettings {

  /** What a pool's engines run. */
  public enum Language {
    /** {@code call: module:function} tasks, in {@code berth_engine.py} engines. */
    PYTHON,
    /** {@code java:} tasks ({@code BerthTask}s), in JVMs running Berth's task worker. */
    JAVA;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

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
    return builder(setting(settings, "name", Parsers.TEXT, null))
        .set(PoolKeys.SETUP, setting(settings, "setup", Parsers.TEXT, ""))
        .set(PoolKeys.SIZE, setting(settings, "size", Parsers.wholeNumber(0), 0))
        .set(PoolKeys.HWM, setting(settings, "hwm", Parsers.wholeNumber(0), 0))
        .set(PoolKeys.RECYCLE_AFTER, setting(settings, "recycle-after", Parsers.wholeNumber(0), 0))
        .set(PoolKeys.RECYCLE_MEMORY, setting(settings, "recycle-memory", Parsers.MEMORY, 0L))
        .set(PoolKeys.SCHEME, setting(settings, "scheme", Parsers.oneOf(WorkerScheme.values()), WorkerScheme.LEASTLOAD))
        .set(PoolKeys.MEMORY, setting(settings, "memory", Parsers.MEMORY, 0L))
        .set(PoolKeys.GPU_MEMORY, setting(settings, "gpu-memory", Parsers.MEMORY, 0L)).build();
  };

  private static final String PYTHON_FUNCTION = "[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_.]*";
  private static final String JAVA_NAME = "[A-Za-z_$][A-Za-z0-9_$]*";
  private static final String JAVA_SETUP = JAVA_NAME + "(\\." + JAVA_NAME + ")*(::" + JAVA_NAME + ")?";

  /** Validates the rules across keys, naming the key and the rule. */
  private PoolSpec(Object[] values) {
    super(values);
    Objects.requireNonNull(name(), "name");
    if (size() < 0) {
      throw new IllegalArgumentException("size must be auto or a whole number >= 1");
    }
    if (hwm() < 0) {
      throw new IllegalArgumentException("hwm must be auto or a whole number >= 1");
    }
    if (recycleAfter() < 0 || recycleMemoryBytes() < 0 || memoryBytes() < 0 || gpuMemoryBytes() < 0) {
      throw new IllegalArgumentException("recycle-after, recycle-memory, memory and gpu-memory must not be negative");
    }
  }

  /** A builder of the pool {@code name}, every key at its default. */
  public static Builder builder(String name) {
    return new Builder(PoolKeys.defaults()).set(PoolKeys.NAME, name);
  }

  /** A builder holding this pool's values. */
  public Builder toBuilder() {
    return new Builder(values());
  }

  /** A pool with every setting at its default: auto size, auto high-water mark, leastload, never recycled. */
  public static PoolSpec named(String name) {
    return builder(name).build();
  }

  /**
   * The pool {@code name} with the keys as written (text, numbers), any left out at its default.
   *
   * @throws InvalidValue naming the key ({@link InvalidValue#path()}) and the rule it breaks
   */
  public static PoolSpec read(String name, Map<String, ?> written) {
    PoolSpec pool = PoolKeys.TABLE.read(written).toBuilder().set(PoolKeys.NAME, name).build();
    // These rules read the keys as written, not the pool: the journal's forms leave the language out.
    if (pool.language() == Language.JAVA && written.get("python") != null) {
      throw new InvalidValue(null, "python", "only applies to a Python pool; a Java pool runs its tasks' java");
    }
    String setup = pool.setup();
    if (!setup.isEmpty() && pool.language() == Language.PYTHON && !setup.matches(PYTHON_FUNCTION)) {
      throw new InvalidValue(null, "setup", "'" + setup + "' is not a function; write package.module:function");
    }
    if (!setup.isEmpty() && pool.language() == Language.JAVA && !setup.matches(JAVA_SETUP)) {
      throw new InvalidValue(null, "setup", "'" + setup + "' is not a class or static method; write"
          + " com.example.Warm or com.example.Warm::load");
    }
    return pool;
  }

  /**
   * This pool as its tasks carry it: the language and interpreter at their defaults, which the
   * journal's stored form ({@link #settings()}) leaves out, as a task's command already says them.
   */
  public PoolSpec carried() {
    PoolSpec defaults = PoolKeys.TABLE.defaults();
    return toBuilder().set(PoolKeys.LANGUAGE, defaults.language()).set(PoolKeys.PYTHON, defaults.python()).build();
  }

  /** {@code key}'s value. */
  public <T> T get(ConfigKey<PoolSpec, Builder, T> key) {
    return key.get().apply(this);
  }

  /** The pool's name. */
  public String name() {
    return get(PoolKeys.NAME);
  }

  /** {@link PoolKeys#LANGUAGE}. */
  public Language language() {
    return get(PoolKeys.LANGUAGE);
  }

  /** {@link PoolKeys#PYTHON}. */
  public String python() {
    return get(PoolKeys.PYTHON);
  }

  /** {@link PoolKeys#SETUP}: empty for none. */
  public String setup() {
    return get(PoolKeys.SETUP);
  }

  /** {@link PoolKeys#SIZE}: 0 for {@code auto}, as many as admission lets calls run at once. */
  public int size() {
    return get(PoolKeys.SIZE);
  }

  /** {@link PoolKeys#HWM}: 0 for {@code auto}, one while the engine's calls are long, several while they are short. */
  public int hwm() {
    return get(PoolKeys.HWM);
  }

  /** {@link PoolKeys#RECYCLE_AFTER}: 0 for never. */
  public int recycleAfter() {
    return get(PoolKeys.RECYCLE_AFTER);
  }

  /** {@link PoolKeys#RECYCLE_MEMORY}: 0 for never. */
  public long recycleMemoryBytes() {
    return get(PoolKeys.RECYCLE_MEMORY);
  }

  /** {@link PoolKeys#SCHEME}. */
  public WorkerScheme scheme() {
    return get(PoolKeys.SCHEME);
  }

  /** {@link PoolKeys#MEMORY}: 0 for none. */
  public long memoryBytes() {
    return get(PoolKeys.MEMORY);
  }

  /** {@link PoolKeys#GPU_MEMORY}: 0 for none. */
  public long gpuMemoryBytes() {
    return get(PoolKeys.GPU_MEMORY);
  }

  /**
   * The name and settings as a mapping of text and whole numbers, by {@link #SETTINGS} in sorted order:
   * what the journal stores, which {@link #PARSER} reads back. A size or high-water mark of 0 is auto.
   */
  public SortedMap<String, Object> settings() {
    SortedMap<String, Object> settings = new TreeMap<>();
    settings.put("name", name());
    settings.put("setup", setup());
    settings.put("size", size());
    settings.put("hwm", hwm());
    settings.put("recycle-after", recycleAfter());
    settings.put("recycle-memory", recycleMemoryBytes());
    settings.put("scheme", scheme().toString());
    settings.put("memory", memoryBytes());
    settings.put("gpu-memory", gpuMemoryBytes());
    return Collections.unmodifiableSortedMap(settings);
  }

  /** The settings as one line, {@code key=value} separated by spaces; {@link #parse} reads it back. */
  public String text() {
    return "setup=" + setup() + " size=" + size() + " hwm=" + hwm() + " recycle-after=" + recycleAfter()
        + " recycle-memory=" + recycleMemoryBytes() + " scheme=" + scheme() + " memory=" + memoryBytes()
        + " gpu-memory=" + gpuMemoryBytes();
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
      return builder(name).set(PoolKeys.SETUP, values.getOrDefault("setup", ""))
          .set(PoolKeys.SIZE, Integer.parseInt(values.getOrDefault("size", "0")))
          .set(PoolKeys.HWM, Integer.parseInt(values.getOrDefault("hwm", "1")))
          .set(PoolKeys.RECYCLE_AFTER, Integer.parseInt(values.getOrDefault("recycle-after", "0")))
          .set(PoolKeys.RECYCLE_MEMORY, Long.parseLong(values.getOrDefault("recycle-memory", "0")))
          .set(PoolKeys.SCHEME, WorkerScheme.named(values.getOrDefault("scheme", "leastload")))
          .set(PoolKeys.MEMORY, Long.parseLong(values.getOrDefault("memory", "0")))
          .set(PoolKeys.GPU_MEMORY, Long.parseLong(values.getOrDefault("gpu-memory", "0"))).build();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not pool settings: " + text, e);
    }
  }

  @Override
  protected SettingsTable<?, ?> table() {
    return PoolKeys.TABLE;
  }

  /**
   * The value under {@code key} of {@code written}, or {@code otherwise} when it is not there.
   *
   * @throws InvalidValue placed under {@code key} when the value breaks its rule
   */
  private static <T> T setting(Map<String, ?> written, String key, ValueParser<T> parser, T otherwise) {
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

  /** Builds a {@link PoolSpec}, one key at a time. */
  public static final class Builder extends KeyedSettings.Builder<Builder> {

    private Builder(Object[] values) {
      super(values);
    }

    /**
     * The pool.
     *
     * @throws IllegalArgumentException naming the key and the rule a value breaks
     */
    public PoolSpec build() {
      return new PoolSpec(values());
    }
  }
}
