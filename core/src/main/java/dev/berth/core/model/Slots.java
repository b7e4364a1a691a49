package dev.berth.core.model;

import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.ValueParser;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Makes the keys of a {@link KeyedSettings} table, one slot each in declaration order, and keeps each
 * key's default: a table declares a key once, with its default, and the settings hold its value in
 * its slot.
 *
 * @param <R> the settings
 * @param <B> their builder
 */
public final class Slots<R extends KeyedSettings, B extends KeyedSettings.Builder<B>> {

  private final List<Object> defaults = new ArrayList<>();

  /** The key {@code key}, held in the next slot; see {@link ConfigKey#of} for the other parts. */
  public <T> ConfigKey<R, B, T> key(String key, String type, ValueParser<T> parser, T defaultValue,
      Function<T, String> show, String docs) {
    int slot = defaults.size();
    defaults.add(defaultValue);
    @SuppressWarnings("unchecked") // a slot only holds what its own key's setter put there
    Function<R, T> get = settings -> (T) settings.at(slot);
    return ConfigKey.of(key, type, parser, (builder, value) -> builder.put(slot, value), get, show, docs);
  }

  /** A key of text shown as written, held in the next slot. */
  public ConfigKey<R, B, String> text(String key, String defaultValue, String docs) {
    return key(key, "text", Parsers.TEXT, defaultValue, Function.identity(), docs);
  }

  /** Each key's default, by slot: the values of a builder that sets nothing. */
  public Object[] defaults() {
    return defaults.toArray();
  }
}
