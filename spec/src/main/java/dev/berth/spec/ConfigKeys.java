package dev.berth.spec;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.Setting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The config keys a reader knows: core's scheduling keys ({@link SchedulerKeys}) and those of the
 * adapters' tables it is given (mail, Slurm, ...), each key once, with a way to print a run's
 * configuration in the shape a config file uses. Tables a spec writes at its top level (such as
 * {@code notify}) are read with the spec, not from a config file, and are not listed here.
 */
public final class ConfigKeys {

  private final List<SettingsTable<?, ?>> adapters;
  private final List<ConfigEntry> entries;

  private ConfigKeys(List<SettingsTable<?, ?>> adapters) {
    this.adapters = List.copyOf(adapters);
    List<ConfigEntry> all = new ArrayList<>();
    Stream.concat(Stream.of(SchedulerKeys.TABLE), adapters.stream()).filter(t -> !t.topLevel())
        .forEach(t -> t.keys().forEach(k -> all.add(new ConfigEntry(t, k))));
    this.entries = List.copyOf(all);
  }

  /** The keys of core and of {@code adapters}, the tables of the adapters a run may use. */
  public static ConfigKeys of(List<SettingsTable<?, ?>> adapters) {
    return new ConfigKeys(adapters);
  }

  /** The adapters' tables, config and top-level ones. */
  List<SettingsTable<?, ?>> adapters() {
    return adapters;
  }

  /** Every config key in documentation order, with its default. */
  public List<Setting<?>> all() {
    List<Setting<?>> all = new ArrayList<>();
    Stream.concat(Stream.of(SchedulerKeys.TABLE), adapters.stream()).filter(t -> !t.topLevel())
        .forEach(t -> all.addAll(t.settings()));
    return all;
  }

  /** Each config key's value in {@code run}, in documentation order, written as a config file would. */
  public Map<String, String> values(RunSpec run) {
    Map<String, String> values = new LinkedHashMap<>(SchedulerKeys.TABLE.shown(run.config()));
    adapters.stream().filter(t -> !t.topLevel()).forEach(t -> values.putAll(shown(t, run)));
    List<String> order = entries.stream().map(ConfigEntry::name).toList();
    Map<String, String> ordered = new LinkedHashMap<>();
    order.forEach(k -> ordered.put(k, values.get(k)));
    return ordered;
  }

  /**
   * {@code run}'s configuration as nested YAML, the shape of a config file or of a spec's
   * {@code config:} block: {@code scheduler:} then {@code max-process: 20} and so on.
   */
  public String toYaml(RunSpec run) {
    return yaml(values(run), Map.of());
  }

  /** Every key with its default, each after a comment with its meaning: a config file to start from. */
  public String defaultsYaml() {
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, String> docs = new LinkedHashMap<>();
    for (Setting<?> s : all()) {
      values.put(s.key(), s.defaultValue());
      docs.put(s.key(), s.docs());
    }
    return yaml(values, docs);
  }

  private String yaml(Map<String, String> values, Map<String, String> docs) {
    StringBuilder out = new StringBuilder();
    for (String section : sections()) {
      out.append(section).append(":\n");
      values.forEach((key, value) -> {
        if (key.startsWith(section + ".")) {
          if (docs.containsKey(key)) {
            out.append("  # ").append(docs.get(key)).append('\n');
          }
          out.append("  ").append(key.substring(section.length() + 1)).append(": ")
              .append(value.isEmpty() ? "\"\"" : value).append('\n');
        }
      });
    }
    return out.toString();
  }

  /** The entry for a dotted key. */
  Optional<ConfigEntry> entry(String key) {
    return entries.stream().filter(e -> e.name().equals(key)).findFirst();
  }

  /** Every entry, in documentation order. */
  List<ConfigEntry> entries() {
    return entries;
  }

  /**
   * The sections keys live in, e.g. {@code scheduler}: core's first, then each adapter's in the order
   * the adapters were given. A section an adapter shares with core is the adapter's when the adapter is
   * named after it ({@code slurm}); one an adapter only adds keys to ({@code scheduler}) stays core's.
   */
  Set<String> sections() {
    Set<String> named = new LinkedHashSet<>();
    adapters.stream().map(SettingsTable::name)
        .filter(name -> entries.stream().anyMatch(e -> e.section().equals(name))).forEach(named::add);
    Set<String> sections = new LinkedHashSet<>();
    entries.stream().map(ConfigEntry::section).filter(s -> !named.contains(s)).forEach(sections::add);
    sections.addAll(named);
    return sections;
  }

  private static <R> Map<String, String> shown(SettingsTable<R, ?> table, RunSpec run) {
    return table.shown(table.of(run));
  }

  /** The key names of a table, for messages. */
  static List<String> names(SettingsTable<?, ?> table) {
    return table.keys().stream().map(ConfigKey::key).toList();
  }
}
