package dev.berth.journal;

/**
 * A spec stored by an earlier Berth as today's Berth writes it again. Keys added since are written
 * only when set (see {@code ConfigKey.asJournaledWhenSet}), so they do not appear; what changes is
 * what Berth no longer writes: the webhook's address, a secret now, and the retired
 * {@code scheduler.learn-usage}, whose place the learning keys took at their defaults.
 */
final class TodaysSpec {

  private TodaysSpec() {}

  /** {@code storedSpec} without the fields this Berth no longer writes. */
  static String of(String storedSpec) {
    return storedSpec
        .replaceAll(",\"webhook\":(null|\"[^\"]*\")", "")
        .replaceAll("\"webhook\":(null|\"[^\"]*\"),", "")
        .replaceAll("\"learn-usage\":\"[a-z]*\",", "");
  }
}
