package dev.berth.journal;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A spec stored by an earlier Berth as today's Berth writes it: the keys added since then read back as
 * their defaults (see {@link SettingsCodec}), and are written with them.
 */
final class TodaysSpec {

  /** {@code slurm.retry-for}, added after the checked-in journals were written. */
  private static final Pattern BEFORE_RETRY_FOR = Pattern.compile("(\"slurm\":\\{[^}]*\"qos\":\"[^\"]*\",)");

  private TodaysSpec() {}

  /** {@code storedSpec} with the keys added since, at their defaults, where canonical JSON puts them. */
  static String of(String storedSpec) {
    if (storedSpec.contains("\"retry-for\":")) {
      return storedSpec;
    }
    Matcher m = BEFORE_RETRY_FOR.matcher(storedSpec);
    return m.find() ? m.replaceFirst(Matcher.quoteReplacement(m.group(1)) + "\"retry-for\":\"PT5M\",") : storedSpec;
  }
}
