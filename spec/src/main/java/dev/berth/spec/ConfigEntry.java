package dev.berth.spec;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.InvalidValue;

/**
 * One config key a reader knows, with the table it belongs to: core's scheduling table or an
 * adapter's.
 *
 * @param table the table that owns the key
 * @param key the key
 */
record ConfigEntry(SettingsTable<?, ?> table, ConfigKey<?, ?, ?> key) {

  /** The dotted key, e.g. {@code scheduler.max-process}. */
  String name() {
    return key.key();
  }

  /** The section part of the key, e.g. {@code scheduler}. */
  String section() {
    return key.section();
  }

  /**
   * Parses the value at {@code field} and checks it against its record's rules for this key alone,
   * so that an out-of-range value is reported where it was written. Rules across keys (a mail
   * server once mail is enabled) are checked once every source is stacked.
   */
  Object read(YamlNode node, Field field) throws SpecException {
    Object value = field.read(key.parser(), node);
    try {
      probe(table, value);
    } catch (InvalidValue e) {
      if (e.path().isEmpty() || e.path().equals(key.key())) {
        throw field.problem(asWritten(e.rule(), node));
      }
    }
    return value;
  }

  private <R, B> void probe(SettingsTable<R, B> t, Object value) {
    B builder = t.builder();
    t.key(key.key()).orElseThrow().put(builder, value);
    t.build(builder);
  }

  /** The rule quoting the value as the user wrote it ('0s'), not as Java prints it (PT0S). */
  private static String asWritten(String rule, YamlNode node) {
    int was = rule.lastIndexOf(" but was ");
    return was < 0 ? rule : rule.substring(0, was) + " but was " + node.describe();
  }
}
