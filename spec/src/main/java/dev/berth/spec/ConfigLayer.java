package dev.berth.spec;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Suggestions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The config keys one source sets: the config file, the spec's {@code config:} block (with its
 * top-level {@code executor:}, {@code slurm:} and {@code notify:}), or the {@code --set} overrides.
 * Each value is checked when read, so a problem names the source it came from; {@link #combine}
 * then stacks the sources, later ones winning, into core's config and the adapters' settings.
 */
final class ConfigLayer {

  /** The file name used in errors about {@code --set} overrides. */
  static final String COMMAND_LINE = "command line";

  /** A source that sets nothing. */
  static final ConfigLayer EMPTY = new ConfigLayer(Map.of());

  private record Setting(ConfigEntry entry, Object value, Field field) {}

  /** What the stacked layers set: core's config, the adapters' settings, and where each key was won. */
  static final class Combined {
    private final SchedulerConfig config;
    private final Map<SettingsTable<?, ?>, Object> adapters;
    private final Map<String, Field> fields;

    private Combined(SchedulerConfig config, Map<SettingsTable<?, ?>, Object> adapters, Map<String, Field> fields) {
      this.config = config;
      this.adapters = adapters;
      this.fields = fields;
    }

    /** Core's scheduling settings. */
    SchedulerConfig config() {
      return config;
    }

    /** {@code run} carrying every adapter's settings. */
    RunSpec carriedBy(RunSpec run) {
      RunSpec out = run;
      for (Map.Entry<SettingsTable<?, ?>, Object> e : adapters.entrySet()) {
        out = into(e.getKey(), out, e.getValue());
      }
      return out;
    }

    /**
     * Checks every adapter's settings against {@code run}; a problem is placed where its key was set.
     *
     * @param fallback where to place a problem whose key no layer set
     */
    void check(RunSpec run, Field fallback) throws SpecException {
      for (Map.Entry<SettingsTable<?, ?>, Object> e : adapters.entrySet()) {
        try {
          check(e.getKey(), e.getValue(), run);
        } catch (InvalidValue problem) {
          Field where = fields.getOrDefault(problem.path(), fallback);
          throw where.problem(problem.rule());
        }
      }
    }

    private static <R> RunSpec into(SettingsTable<R, ?> table, RunSpec run, Object value) {
      return table.into(run, cast(table, value));
    }

    private static <R> void check(SettingsTable<R, ?> table, Object value, RunSpec run) {
      table.check(cast(table, value), run);
    }

    @SuppressWarnings("unchecked") // built by the same table
    private static <R> R cast(SettingsTable<R, ?> table, Object value) {
      return (R) value;
    }
  }

  private final Map<String, Setting> settings;

  private ConfigLayer(Map<String, Setting> settings) {
    this.settings = settings;
  }

  /** Reads a config file: the nested shape of a spec's {@code config:} block, or dotted keys. */
  static ConfigLayer fromFile(Path file, ConfigKeys keys) throws SpecException {
    Optional<YamlNode> root = YamlReader.readFile(file);
    return root.isEmpty() ? EMPTY : fromNode(root.get(), Field.root(file.toString()), keys);
  }

  /** Reads a mapping of config keys, nested ({@code scheduler: {max-process: 4}}) or dotted. */
  static ConfigLayer fromNode(YamlNode node, Field field, ConfigKeys keys) throws SpecException {
    if (node instanceof YamlNode.Scalar s && s.isNull()) {
      return EMPTY;
    }
    YamlNode.Mapping map = Keys.mapping(node, field, "config keys such as scheduler: {max-process: 4}");
    Map<String, Setting> settings = new LinkedHashMap<>();
    collect(map, "", field, settings, keys);
    return new ConfigLayer(settings);
  }

  /**
   * Reads the spec's top-level {@code executor:} and {@code slurm:} keys, which set
   * {@code scheduler.executor} and the {@code slurm.*} keys, and the top-level blocks of the adapters'
   * tables that a spec writes there (such as {@code notify:}); any may be absent.
   */
  static ConfigLayer fromTopLevel(YamlNode.Mapping spec, Field root, ConfigKeys keys) throws SpecException {
    Map<String, Setting> settings = new LinkedHashMap<>();
    YamlNode executor = spec.get("executor");
    if (executor != null) {
      Field f = root.key("executor");
      ConfigEntry entry = entryFor("scheduler.executor", "scheduler.", f, keys);
      settings.put(entry.name(), new Setting(entry, entry.read(executor, f), f));
    }
    YamlNode slurm = spec.get("slurm");
    if (slurm != null && !(slurm instanceof YamlNode.Scalar s && s.isNull())) {
      Field f = root.key("slurm");
      collect(Keys.mapping(slurm, f, "Slurm settings such as partition: gpu"), "slurm.", f, settings, keys);
    }
    for (SettingsTable<?, ?> table : keys.adapters()) {
      YamlNode block = spec.get(table.name());
      if (table.topLevel() && block != null) {
        Field f = root.key(table.name());
        YamlNode.Mapping map = Keys.mapping(block, f, "settings such as " + String.join(", ", ConfigKeys.names(table)));
        for (Map.Entry<String, YamlNode> e : map.entries().entrySet()) {
          String key = table.name() + "." + e.getKey();
          Field at = f.key(e.getKey());
          if (table.key(key).isEmpty()) {
            throw at.problem(Suggestions.unknownKey(e.getKey(),
                ConfigKeys.names(table).stream().map(k -> k.substring(table.name().length() + 1)).toList()));
          }
          ConfigEntry entry = new ConfigEntry(table, table.key(key).get());
          settings.put(key, new Setting(entry, entry.read(e.getValue(), at), at));
        }
      }
    }
    return new ConfigLayer(settings);
  }

  /** Reads {@code key=value} overrides; the value is a YAML scalar. A later override of a key wins. */
  static ConfigLayer fromOverrides(List<String> overrides, ConfigKeys keys) throws SpecException {
    Map<String, Setting> settings = new LinkedHashMap<>();
    for (String override : overrides) {
      int eq = override.indexOf('=');
      if (eq <= 0 || override.substring(0, eq).isBlank()) {
        throw new Field(COMMAND_LINE, "--set").problem("'" + override + "' must be written key=value,"
            + " e.g. scheduler.max-process=4");
      }
      String key = override.substring(0, eq).strip();
      Field field = new Field(COMMAND_LINE, "--set " + key);
      ConfigEntry entry = entryFor(key, "", field, keys);
      if (entry == null) {
        throw field.problem("is a section, not a key; set one of " + String.join(", ", keysIn(key, keys)));
      }
      settings.put(key, new Setting(entry, entry.read(scalar(override.substring(eq + 1), field), field), field));
    }
    return new ConfigLayer(settings);
  }

  /**
   * Stacks {@code layers} over the defaults, later layers winning key by key.
   *
   * @param whole where to report a problem no single key explains
   * @throws SpecException when the combination breaks a rule, named at the field that set the key
   */
  static Combined combine(List<ConfigLayer> layers, ConfigKeys keys, Field whole) throws SpecException {
    Map<String, Setting> winners = new LinkedHashMap<>();
    for (ConfigLayer layer : layers) {
      for (Setting s : layer.settings.values()) {
        winners.put(s.entry().name(), s);
      }
    }
    Map<String, Field> fields = new LinkedHashMap<>();
    winners.forEach((key, s) -> fields.put(key, s.field()));
    SchedulerConfig config = (SchedulerConfig) build(SchedulerKeys.TABLE, winners, fields, whole);
    Map<SettingsTable<?, ?>, Object> adapters = new LinkedHashMap<>(); // tables have identity; insertion order
    for (SettingsTable<?, ?> table : keys.adapters()) {
      adapters.put(table, build(table, winners, fields, whole));
    }
    return new Combined(config, adapters, fields);
  }

  private static <R, B> Object build(SettingsTable<R, B> table, Map<String, Setting> winners, Map<String, Field> fields,
      Field whole) throws SpecException {
    B builder = table.builder();
    boolean set = false;
    for (Setting s : winners.values()) {
      if (s.entry().table() == table) {
        table.key(s.entry().name()).orElseThrow().put(builder, s.value());
        set = true;
      }
    }
    if (!set) {
      return table.defaults(); // the table's own instance, which it tells from others without comparing
    }
    try {
      return table.build(builder);
    } catch (InvalidValue e) {
      // Values were checked one by one when read, so only a rule across keys can fail here.
      Field where = fields.get(e.path());
      if (where == null) {
        throw whole.problem(e.path().isEmpty() ? e.rule() : e.path() + " " + e.rule());
      }
      throw where.problem(e.rule());
    }
  }

  private static void collect(YamlNode.Mapping map, String prefix, Field field, Map<String, Setting> out,
      ConfigKeys keys) throws SpecException {
    for (Map.Entry<String, YamlNode> e : map.entries().entrySet()) {
      String key = prefix + e.getKey();
      Field f = field.key(e.getKey());
      ConfigEntry entry = entryFor(key, prefix, f, keys);
      if (entry == null) {
        if (!(e.getValue() instanceof YamlNode.Scalar s && s.isNull())) {
          collect(Keys.mapping(e.getValue(), f, "settings such as " + String.join(", ", keysIn(key, keys))),
              key + ".", f, out, keys);
        }
        continue;
      }
      Setting twice = out.put(key, new Setting(entry, entry.read(e.getValue(), f), f));
      if (twice != null) {
        throw f.problem("is set twice, once nested under its section and once as a dotted key; keep one");
      }
    }
  }

  /**
   * The entry for {@code key}, or null when it names a section.
   *
   * @throws SpecException when it is neither, or one of fedflow's keys Berth lacks
   */
  private static ConfigEntry entryFor(String key, String prefix, Field field, ConfigKeys keys) throws SpecException {
    Optional<String> unsupported = UnsupportedConfig.reason(key);
    if (unsupported.isPresent()) {
      throw field.problem(unsupported.get());
    }
    Optional<ConfigEntry> entry = keys.entry(key);
    if (entry.isPresent()) {
      return entry.get();
    }
    if (keys.sections().contains(key)) {
      return null;
    }
    throw field.problem(unknownKeyRule(key, prefix, keys));
  }

  private static String unknownKeyRule(String key, String prefix, ConfigKeys keys) {
    String given = key.substring(prefix.length());
    if (key.equals("config")) {
      return "unknown key 'config'; write the settings themselves here, without a 'config:' around them";
    }
    // A key written without its section, e.g. max-process for scheduler.max-process.
    List<String> sectioned = keys.entries().stream().map(ConfigEntry::name)
        .filter(k -> k.startsWith(prefix) && k.endsWith("." + given))
        .map(k -> "'" + k.substring(prefix.length()) + "'")
        .toList();
    if (!sectioned.isEmpty()) {
      return "unknown key '" + given + "'; did you mean " + String.join(" or ", sectioned) + "?";
    }
    List<String> listed = prefix.isEmpty() ? new ArrayList<>(keys.sections()) : namesUnder(prefix, keys);
    return Suggestions.unknownKey(given, namesUnder(prefix, keys), listed);
  }

  /** The keys and sections that may follow {@code prefix}, relative to it. */
  private static List<String> namesUnder(String prefix, ConfigKeys keys) {
    Set<String> names = new LinkedHashSet<>();
    if (prefix.isEmpty()) {
      names.addAll(keys.sections());
    }
    for (ConfigEntry e : keys.entries()) {
      if (e.name().startsWith(prefix)) {
        names.add(e.name().substring(prefix.length()));
      }
    }
    return new ArrayList<>(names);
  }

  private static List<String> keysIn(String section, ConfigKeys keys) {
    return keys.entries().stream().map(ConfigEntry::name).filter(k -> k.startsWith(section + ".")).toList();
  }

  /** An override's value as YAML would read it; text that is not valid YAML is taken as written. */
  private static YamlNode scalar(String text, Field field) {
    try {
      return YamlReader.readText(text, field).orElse(new YamlNode.Scalar(YamlNode.Kind.NULL, "", null));
    } catch (SpecException e) {
      return new YamlNode.Scalar(YamlNode.Kind.STRING, text, null);
    }
  }
}
