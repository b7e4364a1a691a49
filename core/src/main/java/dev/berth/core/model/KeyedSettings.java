package dev.berth.core.model;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A settings value that holds one value per key of its table, in the slot {@link Slots} gave the key
 * when the table declared it: the scheduling settings, an adapter's (Slurm's) and an engine pool's.
 * Equal when the values are; shown as {@code key=value} in table order.
 */
public abstract class KeyedSettings {

  private final Object[] values;

  /** Settings holding {@code values}, by slot; the array is theirs from now on. */
  protected KeyedSettings(Object[] values) {
    this.values = values;
  }

  /** The table whose keys these settings hold, for {@link #toString()}. */
  protected abstract SettingsTable<?, ?> table();

  /** The value in {@code slot}, for the getters {@link Slots} makes. */
  final Object at(int slot) {
    return values[slot];
  }

  /** A copy of the values, to start a builder from. */
  protected final Object[] values() {
    return values.clone();
  }

  @Override
  public final boolean equals(Object o) {
    return o != null && o.getClass() == getClass() && Arrays.equals(values, ((KeyedSettings) o).values);
  }

  @Override
  public final int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public final String toString() {
    Map<String, Object> shown = new LinkedHashMap<>();
    for (ConfigKey<?, ?, ?> key : table().keys()) {
      shown.put(key.key(), valueOf(key));
    }
    return getClass().getSimpleName() + shown;
  }

  @SuppressWarnings("unchecked") // a table's keys read the settings the table is of, which these are
  private <R> Object valueOf(ConfigKey<R, ?, ?> key) {
    return key.get().apply((R) this);
  }

  /**
   * A builder of such settings: the values so far, by slot.
   *
   * @param <B> the concrete builder, which {@link #set} returns
   */
  public abstract static class Builder<B extends Builder<B>> {
    private final Object[] values;

    /** A builder starting from {@code values}, by slot; the array is the builder's from now on. */
    protected Builder(Object[] values) {
      this.values = values;
    }

    /** Sets {@code key}, as its parser returns it. */
    public final <T> B set(ConfigKey<?, B, T> key, T value) {
      @SuppressWarnings("unchecked") // B is the concrete builder by construction: each extends Builder<itself>
      B self = (B) this;
      key.put(self, Objects.requireNonNull(value, key.key()));
      return self;
    }

    /**
     * Puts a value in its key's slot, for the setters {@link Slots} makes; a list is held as an
     * unmodifiable copy, so that the settings do not change when the caller's list does.
     */
    final void put(int slot, Object value) {
      values[slot] = value instanceof List<?> list ? List.copyOf(list) : value;
    }

    /** A copy of the values so far, to build the settings from. */
    protected final Object[] values() {
      return values.clone();
    }
  }
}
