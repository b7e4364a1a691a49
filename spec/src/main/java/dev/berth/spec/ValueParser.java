package dev.berth.spec;

/**
 * Turns the YAML value of one key into its typed form, or explains at {@code field} why it cannot.
 *
 * @param <T> the typed form
 */
@FunctionalInterface
interface ValueParser<T> {

  /** Parses {@code node}, which the user wrote at {@code field}. */
  T parse(YamlNode node, Field field) throws SpecException;
}
