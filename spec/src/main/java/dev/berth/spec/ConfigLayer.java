package dev.berth.spec;

import dev.berth.core.model.SchedulerConfig;
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
 * The config keys one source sets: the config file, the spec's {@code config:} block, or the
 * {@code --set} overrides. Each value is checked when read, so a problem names the source it came
 * from; {@link #combine} then stacks the sources, later ones winning.
 */
final class ConfigLayer {

  /** The file name used in errors about {@code --set} overrides. */
  static final String COMMAND_LINE = "command line";

  /** A source that sets nothing. */
  static final ConfigLayer EMPTY = new ConfigLayer(Map.of());

  private record Setting(ConfigEntry<?> entry, Object value, Field field) {}

  private final Map<String, Setting> settings;

  private ConfigLayer(Map<String, Setting> settings) {
    this.settings = settings;
  }

  /** Reads a config file: the nested shape of a spec's {@code config:} block, or dotted keys. */
  static ConfigLayer fromFile(Path file) throws SpecException {
    Optional<YamlNode> root = YamlReader.readFile(file);
    return root.isEmpty() ? EMPTY : fromNode(root.get(), Field.root(file.toString()));
  }

  /** Reads a mapping of config keys, nested ({@code scheduler: {max-process: 4}}) or dotted. */
  static ConfigLayer fromNode(YamlNode node, Field field) throws SpecException {
    if (node instanceof YamlNode.Scalar s && s.isNull()) {
      return EMPTY;
    }
    YamlNode.Mapping map = Keys.mapping(node, field, "config keys such as scheduler: {max-process: 4}");
    Map<String, Setting> settings = new LinkedHashMap<>();
    collect(map, "", field, settings);
    return new ConfigLayer(settings);
  }

  /**
   * Reads the spec's top-level {@code executor:} and {@code slurm:} keys, which set
   * {@code scheduler.executor} and the {@code slurm.*} keys; either may be null (absent).
   */
  static ConfigLayer fromExecutor(YamlNode executor, YamlNode slurm, Field root) throws SpecException {
    Map<String, Setting> settings = new LinkedHashMap<>();
    if (executor != null) {
      Field f = root.key("executor");
      ConfigEntry<?> entry = entryFor("scheduler.executor", "scheduler.", f);
      settings.put(entry.key(), new Setting(entry, entry.read(executor, f), f));
    }
    if (slurm != null && !(slurm instanceof YamlNode.Scalar s && s.isNull())) {
      Field f = root.key("slurm");
      collect(Keys.mapping(slurm, f, "Slurm settings such as partition: gpu"), "slurm.", f, settings);
    }
    return new ConfigLayer(settings);
  }

  /** Reads {@code key=value} overrides; the value is a YAML scalar. A later override of a key wins. */
  static ConfigLayer fromOverrides(List<String> overrides) throws SpecException {
    Map<String, Setting> settings = new LinkedHashMap<>();
    for (String override : overrides) {
      int eq = override.indexOf('=');
      if (eq <= 0 || override.substring(0, eq).isBlank()) {
        throw new Field(COMMAND_LINE, "--set").problem("'" + override + "' must be written key=value,"
            + " e.g. scheduler.max-process=4");
      }
      String key = override.substring(0, eq).strip();
      Field field = new Field(COMMAND_LINE, "--set " + key);
      ConfigEntry<?> entry = entryFor(key, "", field);
      if (entry == null) {
        throw field.problem("is a section, not a key; set one of " + String.join(", ", keysIn(key)));
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
  static SchedulerConfig combine(List<ConfigLayer> layers, Field whole) throws SpecException {
    SchedulerConfig.Builder builder = SchedulerConfig.builder();
    Map<String, Setting> winners = new LinkedHashMap<>();
    for (ConfigLayer layer : layers) {
      for (Setting s : layer.settings.values()) {
        s.entry().set(builder, s.value());
        winners.put(s.entry().key(), s);
      }
    }
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      // Values were checked one by one when read, so only a rule across keys can fail here.
      String message = String.valueOf(e.getMessage());
      for (Setting s : winners.values()) {
        if (message.startsWith(s.entry().key() + " ")) {
          throw s.field().problem(s.entry().ruleOf(e));
        }
      }
      throw whole.problem(message);
    }
  }

  private static void collect(YamlNode.Mapping map, String prefix, Field field, Map<String, Setting> out)
      throws SpecException {
    for (Map.Entry<String, YamlNode> e : map.entries().entrySet()) {
      String key = prefix + e.getKey();
      Field f = field.key(e.getKey());
      ConfigEntry<?> entry = entryFor(key, prefix, f);
      if (entry == null) {
        if (!(e.getValue() instanceof YamlNode.Scalar s && s.isNull())) {
          collect(Keys.mapping(e.getValue(), f, "settings such as " + String.join(", ", keysIn(key))),
              key + ".", f, out);
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
  private static ConfigEntry<?> entryFor(String key, String prefix, Field field) throws SpecException {
    Optional<String> unsupported = UnsupportedConfig.reason(key);
    if (unsupported.isPresent()) {
      throw field.problem(unsupported.get());
    }
    Optional<ConfigEntry<?>> entry = ConfigKeys.entry(key);
    if (entry.isPresent()) {
      return entry.get();
    }
    if (ConfigKeys.sections().contains(key)) {
      return null;
    }
    throw field.problem(unknownKeyRule(key, prefix));
  }

  private static String unknownKeyRule(String key, String prefix) {
    String given = key.substring(prefix.length());
    if (key.equals("config")) {
      return "unknown key 'config'; write the settings themselves here, without a 'config:' around them";
    }
    // A key written without its section, e.g. max-process for scheduler.max-process.
    List<String> sectioned = ConfigKeys.ENTRIES.stream().map(ConfigEntry::key)
        .filter(k -> k.startsWith(prefix) && k.endsWith("." + given))
        .map(k -> "'" + k.substring(prefix.length()) + "'")
        .toList();
    if (!sectioned.isEmpty()) {
      return "unknown key '" + given + "'; did you mean " + String.join(" or ", sectioned) + "?";
    }
    List<String> listed = prefix.isEmpty() ? new ArrayList<>(ConfigKeys.sections()) : namesUnder(prefix);
    return Suggestions.unknownKey(given, namesUnder(prefix), listed);
  }

  /** The keys and sections that may follow {@code prefix}, relative to it. */
  private static List<String> namesUnder(String prefix) {
    Set<String> names = new LinkedHashSet<>();
    if (prefix.isEmpty()) {
      names.addAll(ConfigKeys.sections());
    }
    for (ConfigEntry<?> e : ConfigKeys.ENTRIES) {
      if (e.key().startsWith(prefix)) {
        names.add(e.key().substring(prefix.length()));
      }
    }
    return new ArrayList<>(names);
  }

  private static List<String> keysIn(String section) {
    return ConfigKeys.ENTRIES.stream().map(ConfigEntry::key).filter(k -> k.startsWith(section + ".")).toList();
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
