package dev.berth.core.pool;

import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Suggestions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One pool as a user defines it, in a spec's {@code pools:} or through the Java API: its settings, the
 * language its engines run and, for Python, the interpreter. Both read it from the values as written
 * with {@link #read}, so both check the same rules.
 *
 * @param spec the settings its tasks carry
 * @param language what its engines run: Python calls or Java tasks
 * @param python the interpreter of a Python pool's engines
 */
public record PoolDefinition(PoolSpec spec, Language language, String python) {

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

  /** The keys a pool takes, in documentation order. */
  public static final List<String> KEYS = List.of("language", "python", "setup", "size", "hwm", "recycle-after",
      "recycle-memory", "memory", "gpu-memory", "scheme");

  private static final String PYTHON_FUNCTION = "[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_.]*";
  private static final String JAVA_NAME = "[A-Za-z_$][A-Za-z0-9_$]*";
  private static final String JAVA_SETUP = JAVA_NAME + "(\\." + JAVA_NAME + ")*(::" + JAVA_NAME + ")?";

  /** Validates. */
  public PoolDefinition {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(language, "language");
    Objects.requireNonNull(python, "python");
  }

  /**
   * The pool {@code name} with the keys as written (text, numbers), any left out at its default.
   *
   * @throws InvalidValue naming the key ({@link InvalidValue#path()}) and the rule it breaks
   */
  public static PoolDefinition read(String name, Map<String, ?> written) {
    for (String key : written.keySet()) {
      if (!KEYS.contains(key)) {
        throw new InvalidValue(null, key, Suggestions.unknownKey(key, KEYS));
      }
    }
    Language language = PoolSpec.setting(written, "language", Parsers.oneOf(Language.values()),
        Language.PYTHON);
    if (language == Language.JAVA && written.get("python") != null) {
      throw new InvalidValue(null, "python", "only applies to a Python pool; a Java pool runs its tasks' java");
    }
    String python = PoolSpec.setting(written, "python", Parsers.TEXT, "python3");
    String setup = PoolSpec.setting(written, "setup", Parsers.TEXT, "");
    if (!setup.isEmpty() && language == Language.PYTHON && !setup.matches(PYTHON_FUNCTION)) {
      throw new InvalidValue(null, "setup", "'" + setup + "' is not a function; write package.module:function");
    }
    if (!setup.isEmpty() && language == Language.JAVA && !setup.matches(JAVA_SETUP)) {
      throw new InvalidValue(null, "setup", "'" + setup + "' is not a class or static method; write"
          + " com.example.Warm or com.example.Warm::load");
    }
    int size = PoolSpec.setting(written, "size", PoolDefinition::autoOrNumber, 0);
    int hwm = PoolSpec.setting(written, "hwm", PoolDefinition::autoOrNumber, 0);
    int recycleAfter = PoolSpec.setting(written, "recycle-after", Parsers.wholeNumber(0), 0);
    long recycleMemory = PoolSpec.setting(written, "recycle-memory", Parsers.MEMORY, 0L);
    long memory = PoolSpec.setting(written, "memory", Parsers.MEMORY, 0L);
    long gpuMemory = PoolSpec.setting(written, "gpu-memory", Parsers.MEMORY, 0L);
    WorkerScheme scheme = PoolSpec.setting(written, "scheme", Parsers.oneOf(WorkerScheme.values()),
        WorkerScheme.LEASTLOAD);
    return new PoolDefinition(new PoolSpec(name, setup, size, hwm, recycleAfter, recycleMemory, scheme, memory,
        gpuMemory),
        language, python);
  }

  /** {@code auto} (0) or a whole number >= 1. */
  private static int autoOrNumber(Object v) {
    if ("auto".equals(v)) {
      return 0;
    }
    try {
      return Parsers.wholeNumber(1).parse(v);
    } catch (InvalidValue e) {
      throw new InvalidValue("must be auto or a whole number >= 1, not " + Parsers.describe(v));
    }
  }
}
