package dev.berth.core.model;

import java.util.Arrays;

/**
 * The values of a fixed list of keys, one slot per key, immutable. A task holds one (the values of
 * the task keys it carries, {@link TaskKeys#carried()}), so that a key added to the table needs no
 * field, no codec line and no comparison of its own. Values a task leaves at their defaults are the
 * table's shared instances, so a sweep of 100,000 tasks does not hold 100,000 copies of them.
 */
public final class Settings {

  private final Object[] values;

  private Settings(Object[] values) {
    this.values = values;
  }

  /** {@code key}'s value: null for a key with no value ("none"). */
  @SuppressWarnings("unchecked") // a slot only holds what its key's builder call put there
  public <T> T get(TaskKey<T> key) {
    return (T) values[key.slot()];
  }

  /** A builder starting from these values. */
  public Builder toBuilder() {
    return new Builder(values.clone());
  }

  /** Settings of {@code size} slots, all empty. */
  static Builder builder(int size) {
    return new Builder(new Object[size]);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Settings other && Arrays.equals(values, other.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return Arrays.toString(values);
  }

  /** Settings being filled in, key by key. */
  public static final class Builder {
    private final Object[] values;

    private Builder(Object[] values) {
      this.values = values;
    }

    /** Sets {@code key}'s value; null for none. */
    public <T> Builder set(TaskKey<T> key, T value) {
      values[key.slot()] = value;
      return this;
    }

    /** {@code key}'s value so far. */
    @SuppressWarnings("unchecked") // see Settings.get
    public <T> T get(TaskKey<T> key) {
      return (T) values[key.slot()];
    }

    /** The settings. */
    public Settings build() {
      return new Settings(values.clone());
    }
  }
}
