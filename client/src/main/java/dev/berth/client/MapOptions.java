package dev.berth.client;

import dev.berth.core.model.Names;

/**
 * How {@link Berth#map} runs, after ipyparallel's {@code imap}: start with {@link #defaults()} and
 * change what you need, e.g. {@code MapOptions.defaults().ordered(false).maxOutstanding(4)}.
 *
 * @param ordered true: results come in input order; false: in the order tasks end
 * @param maxOutstanding most submitted tasks not yet ended (back-pressure); 0 submits every input at once
 * @param returnExceptions true: a task that did not succeed comes back as a result whose value is
 *     its {@link TaskFailedException}; false: iterating to it throws that exception
 * @param idPrefix the tasks' ids are {@code <idPrefix>-<index>} (index from 0) when mapping over a
 *     command; null for {@code map<N>}, unique within the session
 */
public record MapOptions(boolean ordered, int maxOutstanding, boolean returnExceptions, String idPrefix) {

  /**
   * Validates.
   *
   * @throws IllegalArgumentException when {@code maxOutstanding} is negative or the prefix is not a valid id
   */
  public MapOptions {
    if (maxOutstanding < 0) {
      throw new IllegalArgumentException("maxOutstanding must be >= 0 (0 = all at once) but was " + maxOutstanding);
    }
    if (idPrefix != null) {
      Names.check("idPrefix", idPrefix);
    }
  }

  /** Ordered, everything at once, failures thrown, generated ids: ipyparallel's {@code map} defaults. */
  public static MapOptions defaults() {
    return new MapOptions(true, 0, false, null);
  }

  /** The same options with results in input order (true) or completion order (false). */
  public MapOptions ordered(boolean inInputOrder) {
    return new MapOptions(inInputOrder, maxOutstanding, returnExceptions, idPrefix);
  }

  /** The same options with at most {@code n} tasks outstanding; 0 = all at once. */
  public MapOptions maxOutstanding(int n) {
    return new MapOptions(ordered, n, returnExceptions, idPrefix);
  }

  /** The same options with failures returned as values (true) or thrown (false). */
  public MapOptions returnExceptions(boolean asValues) {
    return new MapOptions(ordered, maxOutstanding, asValues, idPrefix);
  }

  /** The same options with task ids {@code <prefix>-<index>}. */
  public MapOptions idPrefix(String prefix) {
    return new MapOptions(ordered, maxOutstanding, returnExceptions, prefix);
  }
}
