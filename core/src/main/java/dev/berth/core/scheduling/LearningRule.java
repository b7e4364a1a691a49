package dev.berth.core.scheduling;

import dev.berth.core.scheduling.TemplatePeaks.LearnedPeak;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the measured peaks of a template's finished tasks teach about the request of one of its
 * tasks, for one resource (host or GPU memory). The rule (docs/learning.md):
 *
 * <ol>
 *   <li>A matrix key <em>repeats</em> when two of the template's tasks share a value of it ({@code bs}
 *       and {@code seed} in a {@code bs x seed} sweep; not an index that names each task alone).
 *   <li>A repeating key <em>matters</em> when two peaks of tasks that differ in it alone (agree on
 *       every other key) differ by more than the {@link #MARGIN} ({@code bs} when the batch size sets
 *       the memory; not {@code seed}). With no such pair yet, it matters when the largest peaks of two
 *       of its values differ by more than the margin.
 *   <li>The task learns from the peaks of the tasks that share its value of every key that matters
 *       (all the template's tasks when none does), and only once there are at least {@code learn-after}
 *       of them.
 *   <li>Nor while its value of a repeating key is unseen among the peaks and fewer than two values of
 *       that key are: nothing tells yet whether the key matters.
 *   <li>The learned figure is the 95th percentile of those peaks by nearest rank (with fewer than 20
 *       peaks, the largest) times the {@link #MARGIN}, rounded up to a whole MiB.
 * </ol>
 *
 * <p>A fold: each peak updates what the rule reads (the spread of each key's peaks, overall and
 * among tasks that differ in that key alone, and the quantile of each group of tasks), so asking
 * costs a few map lookups however many tasks have finished. Pure; not thread-safe.
 */
public final class LearningRule {

  /** The peaks' quantile a request is learned from. */
  public static final double QUANTILE = 0.95;

  /** What the quantile is multiplied by, and how far apart two values' peaks may be before a key matters. */
  public static final double MARGIN = 1.2;

  private static final long MIB = 1024 * 1024;
  /** Separators of the texts that name a set of parameter values: they cannot occur in a value. */
  private static final char KEY_END = '\u0000';
  private static final char VALUE_END = '\u0001';

  private final TemplateKeys keys;
  /** One finished task's peak, with the parameter values it ran with. */
  private record Peak(SortedMap<String, String> params, long bytes) {}

  private final List<Peak> peaks = new ArrayList<>();
  private final SortedMap<String, KeySpread> byKey = new TreeMap<>();
  /** The quantile of each group of tasks, by the keys that group them and then by their values. */
  private final SortedMap<String, SortedMap<String, NearestRank>> groups = new TreeMap<>();

  /** An empty fold for a template whose repeating keys {@code keys} knows. */
  LearningRule(TemplateKeys keys) {
    this.keys = keys;
  }

  /** How the peaks of one key spread: overall, and among tasks alike in every other key. */
  private static final class KeySpread {
    final PeakSpread overall = new PeakSpread();
    final SortedMap<String, PeakSpread> alike = new TreeMap<>();
    int comparable;
    int apart;

    void add(String others, String value, long peak) {
      overall.add(value, peak);
      PeakSpread g = alike.computeIfAbsent(others, k -> new PeakSpread());
      boolean wasComparable = g.values() >= 2;
      boolean wasApart = g.apart();
      g.add(value, peak);
      comparable += (g.values() >= 2 ? 1 : 0) - (wasComparable ? 1 : 0);
      apart += (g.apart() ? 1 : 0) - (wasApart ? 1 : 0);
    }

    /** Rule 2: judged on tasks that differ in the key alone where there are such, else overall. */
    boolean matters() {
      return apart > 0 || comparable == 0 && overall.apart();
    }
  }

  /** Takes the peak of a task that succeeded with these parameter values. */
  void add(SortedMap<String, String> params, long peak) {
    peaks.add(new Peak(params, peak));
    for (Map.Entry<String, String> e : params.entrySet()) {
      byKey.computeIfAbsent(e.getKey(), k -> new KeySpread()).add(othersThan(params, e.getKey()), e.getValue(), peak);
    }
    for (Map.Entry<String, SortedMap<String, NearestRank>> g : groups.entrySet()) {
      g.getValue().computeIfAbsent(valuesOf(params, g.getKey()), k -> new NearestRank()).add(peak);
    }
  }

  /**
   * What the peaks teach a task of the template with {@code params}, or empty when they teach nothing yet.
   *
   * @param minimum the fewest peaks a request is learned from ({@code scheduler.learn-after})
   */
  Optional<LearnedPeak> learn(SortedMap<String, String> params, int minimum) {
    if (peaks.size() < Math.max(1, minimum)) {
      return Optional.empty();
    }
    StringBuilder basisKeys = new StringBuilder();
    StringBuilder shared = new StringBuilder();
    for (Map.Entry<String, String> e : params.entrySet()) {
      if (!keys.repeats(e.getKey())) {
        continue;
      }
      KeySpread spread = byKey.get(e.getKey());
      if (spread == null || spread.overall.values() < 2 && !spread.overall.has(e.getValue())) {
        return Optional.empty(); // rule 4
      }
      if (spread.matters()) {
        basisKeys.append(e.getKey()).append(KEY_END);
        shared.append(shared.length() == 0 ? "" : ", ").append(e.getKey()).append('=').append(e.getValue());
      }
    }
    NearestRank group = groupOf(basisKeys.toString()).get(valuesOf(params, basisKeys.toString()));
    if (group == null || group.size() < minimum) {
      return Optional.empty();
    }
    return Optional.of(new LearnedPeak(withMargin(group.quantile()), group.size(), shared.toString()));
  }

  /** The groups by these keys, built from every peak the first time they are asked for. */
  private SortedMap<String, NearestRank> groupOf(String basisKeys) {
    SortedMap<String, NearestRank> g = groups.get(basisKeys);
    if (g == null) {
      g = new TreeMap<>();
      for (Peak p : peaks) {
        g.computeIfAbsent(valuesOf(p.params(), basisKeys), k -> new NearestRank()).add(p.bytes());
      }
      groups.put(basisKeys, g);
    }
    return g;
  }

  /** The values of the keys named in {@code basisKeys} (each ended by {@link #KEY_END}), as one text. */
  private static String valuesOf(SortedMap<String, String> params, String basisKeys) {
    if (basisKeys.isEmpty()) {
      return "";
    }
    StringBuilder values = new StringBuilder();
    int from = 0;
    for (int end = basisKeys.indexOf(KEY_END); end >= 0; from = end + 1, end = basisKeys.indexOf(KEY_END, from)) {
      String v = params.get(basisKeys.substring(from, end));
      values.append(v == null ? "" : v).append(v == null ? KEY_END : VALUE_END);
    }
    return values.toString();
  }

  /** Every parameter value but {@code key}'s, as one text. */
  private static String othersThan(SortedMap<String, String> params, String key) {
    StringBuilder others = new StringBuilder();
    for (Map.Entry<String, String> e : params.entrySet()) {
      if (!e.getKey().equals(key)) {
        others.append(e.getKey()).append(KEY_END).append(e.getValue()).append(VALUE_END);
      }
    }
    return others.toString();
  }

  /** The {@link #QUANTILE} of the peaks by nearest rank; the peaks must not be empty. */
  public static long quantile(List<Long> peaks) {
    List<Long> sorted = new ArrayList<>(peaks);
    sorted.sort(null);
    int rank = (int) Math.ceil(QUANTILE * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  /** {@code bytes} times the {@link #MARGIN}, rounded up to a whole MiB. */
  static long withMargin(long bytes) {
    BigDecimal grown = BigDecimal.valueOf(bytes).multiply(BigDecimal.valueOf(MARGIN));
    return grown.divide(BigDecimal.valueOf(MIB), 0, RoundingMode.CEILING).longValueExact() * MIB;
  }
}
