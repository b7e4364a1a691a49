package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.InvalidValue;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Settings to and from JSON through their tables, in the shape of a config file: one object per
 * section ({@code scheduler}, {@code smtp}, ...) under the same key names, for a table a spec writes at
 * its top level ({@code notify}) one object there. Memory is in bytes, durations are ISO-8601
 * ({@code PT1S}), choices are their names. A secret (the SMTP password) is never written, so that no
 * journal holds one; it reads back as unset. A key the stored text lacks (written by a Berth that
 * did not know it yet) reads back as its default; a key no table knows is an error, except one Berth
 * {@link #RETIRED retired}.
 */
final class SettingsCodec {

  /**
   * Keys an older Berth stored that no longer mean anything, skipped when read: {@code
   * scheduler.learn-usage} chose how placement {@code auto} learned GPU memory, which every policy
   * now learns by one rule ({@code scheduler.learn-gpu-memory}).
   */
  static final Set<String> RETIRED = Set.of("config.scheduler.learn-usage");

  private final ObjectNode config;
  private final ObjectNode top;
  private final Set<String> read = new HashSet<>();

  private SettingsCodec(ObjectNode config, ObjectNode top) {
    this.config = config;
    this.top = top;
  }

  /** A codec writing config sections into {@code config} and top-level ones into {@code top}. */
  static SettingsCodec into(ObjectNode config, ObjectNode top) {
    return new SettingsCodec(config, top);
  }

  /** A codec reading from the stored {@code config} object and the spec's {@code top} object. */
  static SettingsCodec from(JsonNode config, JsonNode top) {
    if (config == null || !config.isObject()) {
      throw new IllegalArgumentException("config must be an object but was " + config);
    }
    return new SettingsCodec((ObjectNode) config, (ObjectNode) top);
  }

  /** Writes {@code settings}. */
  <R> void write(SettingsTable<R, ?> table, R settings) {
    ObjectNode home = table.topLevel() ? top : config;
    table.stored(settings).forEach((key, value) -> {
      String[] parts = key.split("\\.", 2);
      ObjectNode section = home.has(parts[0]) ? (ObjectNode) home.get(parts[0]) : home.putObject(parts[0]);
      section.set(parts[1], StoredValues.json(value));
    });
  }

  /**
   * Reads the settings of {@code table}.
   *
   * @throws IllegalArgumentException naming the field when a value breaks its key's rule
   */
  <R> R read(SettingsTable<R, ?> table) {
    ObjectNode home = table.topLevel() ? top : config;
    Map<String, Object> written = new LinkedHashMap<>();
    for (ConfigKey<R, ?, ?> key : table.keys()) {
      JsonNode section = home.get(key.section());
      JsonNode value = section == null ? null : section.get(key.name());
      read.add((table.topLevel() ? "" : "config.") + key.key());
      if (value != null && !value.isNull()) {
        written.put(key.key(), StoredValues.plain(value));
      }
    }
    try {
      return table.read(written);
    } catch (InvalidValue e) {
      String where = (table.topLevel() ? "" : "config.") + e.path();
      throw new IllegalArgumentException(where + " " + e.rule(), e);
    }
  }

  /**
   * Checks that every key stored in the config sections (and in the top-level {@code sections}) was
   * read by some table.
   *
   * @throws IllegalArgumentException naming the first key no table knows
   */
  void done(List<String> topLevelSections) {
    config.fields().forEachRemaining(section -> known("config." + section.getKey(), section.getValue()));
    for (String name : topLevelSections) {
      if (top.has(name)) {
        known(name, top.get(name));
      }
    }
  }

  private void known(String prefix, JsonNode section) {
    if (!section.isObject()) {
      throw new IllegalArgumentException(prefix + " must be an object but was " + section);
    }
    section.fieldNames().forEachRemaining(key -> {
      if (!read.contains(prefix + "." + key) && !RETIRED.contains(prefix + "." + key)) {
        throw new IllegalArgumentException(prefix + "." + key + " is not a known field");
      }
    });
  }
}
