package dev.berth.core.settings;

/**
 * Turns a value as written (see the package description) into its typed form.
 *
 * @param <T> the typed form
 */
@FunctionalInterface
public interface ValueParser<T> {

  /**
   * Parses {@code written}.
   *
   * @throws InvalidValue stating the rule the value breaks
   */
  T parse(Object written);
}
