package dev.berth.core.model;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The settings of the adapters around the core (mail, webhook, Slurm), by name, each as its own module
 * parsed it. The core carries them unopened; each module reads its own through its settings table.
 * Settings equal to their defaults are not carried, so two runs described alike are equal.
 *
 * @param byName settings by the name of their table, e.g. {@code smtp}
 */
public record AdapterSettings(SortedMap<String, Object> byName) {

  /** No adapter settings: every adapter at its defaults. */
  public static final AdapterSettings NONE = new AdapterSettings(new TreeMap<>());

  /** Copies. */
  public AdapterSettings {
    byName = Collections.unmodifiableSortedMap(new TreeMap<>(byName));
  }

  /** The settings called {@code name}, if carried. */
  public Optional<Object> get(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** These settings with {@code name} set to {@code settings}, or dropped when it is null. */
  public AdapterSettings with(String name, Object settings) {
    SortedMap<String, Object> copy = new TreeMap<>(byName);
    if (settings == null) {
      copy.remove(name);
    } else {
      copy.put(name, settings);
    }
    return new AdapterSettings(copy);
  }

  /** Every name carried, sorted. */
  public Map<String, Object> all() {
    return byName;
  }
}
