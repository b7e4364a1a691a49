package dev.berth.core.model;

import dev.berth.core.model.RunSpec;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Setting;
import dev.berth.core.settings.Suggestions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The config keys of one settings record and how they build it: the table each module exposes for
 * the settings it owns (core its scheduling settings, report the mail and webhook settings, slurm the
 * Slurm settings). Readers parse with it, the journal stores and restores with it, and
 * {@code berth config} and the README list its rows.
 *
 * @param <R> the settings record
 * @param <B> its builder
 */
public final class SettingsTable<R, B> {

  /** Checks settings against the run they belong to, e.g. what a task may ask for on a cluster. */
  @FunctionalInterface
  public interface RunCheck<R> {
    /**
     * Checks {@code settings} for {@code run}.
     *
     * @throws InvalidValue whose path is the dotted key that makes the problem one
     */
    void check(R settings, RunSpec run);
  }

  private final String name;
  private final Class<R> type;
  private final List<ConfigKey<R, B, ?>> keys;
  private final Supplier<B> builder;
  private final Function<B, R> build;
  private final boolean topLevel;
  private final RunCheck<R> check;
  private final List<ConfigKey<R, B, ?>> groupKeys;
  private final R defaults;

  private SettingsTable(String name, Class<R> type, List<ConfigKey<R, B, ?>> keys, Supplier<B> builder,
      Function<B, R> build, boolean topLevel, RunCheck<R> check, List<ConfigKey<R, B, ?>> groupKeys) {
    this.name = Objects.requireNonNull(name, "name");
    this.type = type;
    this.keys = List.copyOf(keys);
    this.builder = builder;
    this.build = build;
    this.topLevel = topLevel;
    this.check = check;
    this.groupKeys = List.copyOf(groupKeys);
    this.defaults = build.apply(builder.get());
  }

  /**
   * A table.
   *
   * @param name what the settings are called, e.g. {@code smtp}; for an adapter, where a run keeps them
   * @param type the record's class
   * @param builder a builder holding the defaults
   * @param build validates and builds; a problem is an {@link IllegalArgumentException} whose
   *     message starts with the dotted key it concerns
   * @param keys the keys in documentation order
   */
  public static <R, B> SettingsTable<R, B> of(String name, Class<R> type, Supplier<B> builder, Function<B, R> build,
      List<ConfigKey<R, B, ?>> keys) {
    return new SettingsTable<>(name, type, keys, builder, build, false, (settings, run) -> {}, List.of());
  }

  /** The same table, whose keys a spec writes at its top level (e.g. {@code notify:}) rather than under {@code config:}. */
  public SettingsTable<R, B> atTopLevel() {
    return new SettingsTable<>(name, type, keys, builder, build, true, check, groupKeys);
  }

  /** The same table, whose settings are also checked against the run. */
  public SettingsTable<R, B> checkedAgainst(RunCheck<R> runCheck) {
    return new SettingsTable<>(name, type, keys, builder, build, topLevel, runCheck, groupKeys);
  }

  /**
   * The same table, of which a group (or a task) may set {@code perGroup} for its own tasks under a
   * mapping named after the table ({@code slurm: {partition: gpu}}), over the run's values; see
   * {@link #over}.
   */
  public SettingsTable<R, B> withGroupKeys(List<ConfigKey<R, B, ?>> perGroup) {
    if (!keys.containsAll(perGroup)) {
      throw new IllegalArgumentException("a group key must be one of the table's keys: " + perGroup);
    }
    return new SettingsTable<>(name, type, keys, builder, build, topLevel, check, perGroup);
  }

  /** The keys a group may set for its tasks, in documentation order; none unless {@link #withGroupKeys}. */
  public List<ConfigKey<R, B, ?>> groupKeys() {
    return groupKeys;
  }

  /**
   * {@code run}'s settings with a group's {@code written} over them: each name is a
   * {@linkplain #groupKeys() group key} within its section ({@code partition} for {@code slurm.partition}),
   * read by that key's own parser, and the result is checked as any settings are.
   *
   * @throws InvalidValue whose path is the name as written (e.g. {@code partition}), for a name that is
   *     no group key, a value its parser refuses, or a rule the result breaks
   */
  public R over(R run, Map<String, ?> written) {
    if (written == null || written.isEmpty()) {
      return run;
    }
    B b = builder();
    keys.forEach(k -> copy(k, run, b));
    for (Map.Entry<String, ?> e : written.entrySet()) {
      ConfigKey<R, B, ?> k = groupKeys.stream().filter(g -> g.name().equals(e.getKey())).findFirst()
          .orElseThrow(() -> new InvalidValue(null, e.getKey(), Suggestions.unknownKey(e.getKey(),
              groupKeys.stream().map(ConfigKey::name).toList())));
      try {
        k.read(b, e.getValue());
      } catch (InvalidValue problem) {
        throw problem.under(k.name());
      }
    }
    try {
      return build(b);
    } catch (InvalidValue e) {
      String path = e.path() == null ? "" : e.path();
      String within = path.startsWith(name + ".") ? path.substring(name.length() + 1) : path;
      throw new InvalidValue(null, within, e.rule());
    }
  }

  private static <R, B, T> void copy(ConfigKey<R, B, T> key, R from, B to) {
    key.put(to, key.get().apply(from));
  }

  /** What the settings are called, e.g. {@code smtp}. */
  public String name() {
    return name;
  }

  /** The settings record's class. */
  public Class<R> type() {
    return type;
  }

  /** Whether a spec writes these keys at its top level rather than under {@code config:}. */
  public boolean topLevel() {
    return topLevel;
  }

  /** The keys, in documentation order. */
  public List<ConfigKey<R, B, ?>> keys() {
    return keys;
  }

  /** The settings when nothing is set. */
  public R defaults() {
    return defaults;
  }

  /** The rows of the docs, defaults from {@link #defaults()}. */
  public List<Setting<?>> settings() {
    return keys.stream().<Setting<?>>map(k -> k.setting(defaults)).toList();
  }

  /** The key with this dotted name, if the table has it. */
  public Optional<ConfigKey<R, B, ?>> key(String dotted) {
    return keys.stream().filter(k -> k.key().equals(dotted)).findFirst();
  }

  /** A builder holding the defaults. */
  public B builder() {
    return builder.get();
  }

  /**
   * The settings {@code builder} holds.
   *
   * @throws InvalidValue whose path is the dotted key a rule across keys names, when it breaks one
   */
  public R build(B builder) {
    try {
      return build.apply(builder);
    } catch (InvalidValue e) {
      throw e;
    } catch (IllegalArgumentException e) {
      String message = String.valueOf(e.getMessage());
      for (ConfigKey<R, B, ?> k : keys) {
        if (message.startsWith(k.key() + " ")) {
          throw new InvalidValue(null, k.key(), message.substring(k.key().length() + 1));
        }
      }
      throw new InvalidValue(message);
    }
  }

  /**
   * The settings written as {@code dotted key -> value as written}; keys left out keep their default.
   *
   * @throws InvalidValue whose path starts with the dotted key, for an unknown key or a broken rule
   */
  public R read(Map<String, ?> written) {
    if (written.isEmpty()) {
      return defaults; // the table's own instance, which into() tells without comparing
    }
    B b = builder();
    for (Map.Entry<String, ?> e : written.entrySet()) {
      ConfigKey<R, B, ?> k = key(e.getKey()).orElseThrow(() -> new InvalidValue(null, e.getKey(),
          Suggestions.unknownKey(e.getKey(), keys.stream().map(ConfigKey::key).toList())));
      try {
        k.read(b, e.getValue());
      } catch (InvalidValue problem) {
        throw problem.under(k.key());
      }
    }
    return build(b);
  }

  /** Each key's typed value in {@code settings}, secrets left out: what the journal stores. */
  public Map<String, Object> stored(R settings) {
    Map<String, Object> stored = new LinkedHashMap<>();
    keys.stream().filter(k -> !k.secret())
        .filter(k -> !k.journaledWhenSet() || !Objects.equals(k.get().apply(settings), k.get().apply(defaults)))
        .forEach(k -> stored.put(k.key(), k.get().apply(settings)));
    return stored;
  }

  /**
   * The environment variables {@code run}'s settings name as holding secrets (e.g. the one
   * {@code smtp.password-env} names): Berth reads them, and no task inherits them.
   */
  public List<String> secretVariables(RunSpec run) {
    R settings = of(run);
    return keys.stream().filter(ConfigKey::secretVariable).map(k -> k.shown(settings))
        .filter(name -> !name.isBlank()).toList();
  }

  /** Each key's value in {@code settings} as a user writes it. */
  public Map<String, String> shown(R settings) {
    Map<String, String> shown = new LinkedHashMap<>();
    keys.forEach(k -> shown.put(k.key(), k.shown(settings)));
    return shown;
  }

  /** These settings of {@code run}: the ones it carries, else the defaults. */
  public R of(RunSpec run) {
    return run.adapters().get(name).map(type::cast).orElse(defaults);
  }

  /** {@code run} carrying {@code settings}; settings equal to the defaults are not carried. */
  public RunSpec into(RunSpec run, R settings) {
    // Identity first: a settings record's equals is made at its first call, from method handles,
    // which was a sixth of reading a spec in a fresh JVM.
    Object carried = settings == defaults || settings.equals(defaults) ? null : settings;
    return run.withAdapters(run.adapters().with(name, carried));
  }

  /**
   * Checks {@code settings} against {@code run}.
   *
   * @throws InvalidValue whose path is the dotted key that makes the problem one
   */
  public void check(R settings, RunSpec run) {
    check.check(settings, run);
  }

  @Override
  public String toString() {
    return "SettingsTable[" + name + "]";
  }
}
