package dev.berth.core.model;

import dev.berth.core.model.PoolSpec.Builder;
import dev.berth.core.model.PoolSpec.Language;
import dev.berth.core.pool.WorkerScheme;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.Setting;
import dev.berth.core.settings.ValueText;
import java.util.List;

/**
 * The keys of an engine pool ({@link PoolSpec}), as a spec's {@code pools:} entry and the Java API's
 * pools write them: each declared here once, with its type, parser, default, printer and docs.
 * {@link PoolSpec} holds one value per key in the key's slot, and its name in one more.
 */
public final class PoolKeys {

  private static final String WHOLE = "whole number";
  private static final String AUTO = "auto or whole number";

  /** The slots of the keys below, and each key's default, as they are made. */
  private static final Slots<PoolSpec, Builder> SLOTS = new Slots<>();

  /** The pool's name: not written among its keys but as the mapping's key above them. */
  public static final ConfigKey<PoolSpec, Builder, String> NAME = SLOTS.text("name", "", "the pool's name");

  /** {@code language}. */
  public static final ConfigKey<PoolSpec, Builder, Language> LANGUAGE =
      SLOTS.key("language", "python or java", Parsers.oneOf(Language.values()), Language.PYTHON, String::valueOf,
          "what the engines run: call: tasks, or java: tasks");

  /** {@code python}. */
  public static final ConfigKey<PoolSpec, Builder, String> PYTHON =
      SLOTS.text("python", "python3", "the interpreter that runs the engines (Python pools only)");

  /** {@code setup}. */
  public static final ConfigKey<PoolSpec, Builder, String> SETUP =
      SLOTS.text("setup", "", "module:function (Java: a class or Class::method) each engine runs once before its"
          + " first call");

  /** {@code size}: 0 is {@code auto}. */
  public static final ConfigKey<PoolSpec, Builder, Integer> SIZE =
      SLOTS.key("size", AUTO, PoolKeys::autoOrNumber, 0, PoolKeys::autoOrShown,
          "the most engines per device; auto: as many as admission lets calls run at once");

  /** {@code hwm}: 0 is {@code auto}. */
  public static final ConfigKey<PoolSpec, Builder, Integer> HWM =
      SLOTS.key("hwm", AUTO, PoolKeys::autoOrNumber, 0, PoolKeys::autoOrShown,
          "the most calls sent to one engine and not yet answered; auto: one while its calls are long, several"
              + " while they are short");

  /** {@code recycle-after}: 0 is never. */
  public static final ConfigKey<PoolSpec, Builder, Integer> RECYCLE_AFTER =
      SLOTS.key("recycle-after", WHOLE, Parsers.wholeNumber(0), 0, String::valueOf,
          "an engine leaves after this many calls; 0 = never");

  /** {@code recycle-memory}: 0 is never. */
  public static final ConfigKey<PoolSpec, Builder, Long> RECYCLE_MEMORY =
      SLOTS.key("recycle-memory", Setting.MEMORY_SIZE, Parsers.MEMORY, 0L, ValueText::bytes,
          "an engine whose resident memory after a call exceeds this leaves; 0 = never");

  /** {@code memory}. */
  public static final ConfigKey<PoolSpec, Builder, Long> MEMORY =
      SLOTS.key("memory", Setting.MEMORY_SIZE, Parsers.MEMORY, 0L, ValueText::bytes,
          "host memory each engine holds while it lives, beside what its calls reserve");

  /** {@code gpu-memory}. */
  public static final ConfigKey<PoolSpec, Builder, Long> GPU_MEMORY =
      SLOTS.key("gpu-memory", Setting.MEMORY_SIZE, Parsers.MEMORY, 0L, ValueText::bytes,
          "GPU memory each engine holds on its device while it lives, beside what its calls reserve");

  /** {@code scheme}. */
  public static final ConfigKey<PoolSpec, Builder, WorkerScheme> SCHEME =
      SLOTS.key("scheme", "scheme name", Parsers.oneOf(WorkerScheme.values()), WorkerScheme.LEASTLOAD,
          String::valueOf, "how the engine for a call is chosen: leastload, lru, plainrandom, weighted or twobin");

  /** The keys a pool is written with, in documentation order (docs/pools.md's table). */
  public static final SettingsTable<PoolSpec, Builder> TABLE = SettingsTable.of("pool", PoolSpec.class,
      () -> PoolSpec.builder(""), Builder::build, List.of(LANGUAGE, PYTHON, SETUP, SIZE, HWM, RECYCLE_AFTER,
          RECYCLE_MEMORY, MEMORY, GPU_MEMORY, SCHEME));

  private PoolKeys() {}

  /** Each key's default, by slot: the values of a builder that sets nothing. */
  static Object[] defaults() {
    return SLOTS.defaults();
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

  private static String autoOrShown(int n) {
    return n == 0 ? "auto" : String.valueOf(n);
  }
}
