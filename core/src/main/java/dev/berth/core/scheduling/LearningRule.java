package dev.berth.core.scheduling;

import dev.berth.core.scheduling.TemplatePeaks.LearnedPeak;
import dev.berth.core.scheduling.TemplatePeaks.Sample;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the measured peaks of a template's finished tasks teach about the request of one of its
 * tasks. Pure. The rule (docs/learning.md):
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
 */
public final class LearningRule {

  /** The peaks' quantile a request is learned from. */
  public static final double QUANTILE = 0.95;

  /** What the quantile is multiplied by, and how far apart two values' peaks may be before a key matters. */
  public static final double MARGIN = 1.2;

  private static final long MIB = 1024 * 1024;

  private LearningRule() {}

  /**
   * What {@code peaks} teach a task of the template with {@code params}, or empty when they teach nothing yet.
   *
   * @param members the parameter values of every task of the template
   * @param minimum the fewest peaks a request is learned from ({@code scheduler.learn-after})
   */
  static Optional<LearnedPeak> learn(List<Sample> peaks, List<SortedMap<String, String>> members,
      SortedMap<String, String> params, int minimum) {
    if (peaks.size() < minimum) {
      return Optional.empty();
    }
    SortedMap<String, String> basis = new TreeMap<>();
    for (Map.Entry<String, String> e : params.entrySet()) {
      String key = e.getKey();
      if (!repeats(members, key)) {
        continue;
      }
      SortedMap<String, Long> largest = largestPeaks(peaks, key);
      if (largest.size() < 2 && !largest.containsKey(e.getValue())) {
        return Optional.empty();
      }
      if (matters(peaks, key, largest)) {
        basis.put(key, e.getValue());
      }
    }
    List<Long> group = new ArrayList<>();
    for (Sample s : peaks) {
      if (basis.entrySet().stream().allMatch(b -> b.getValue().equals(s.params().get(b.getKey())))) {
        group.add(s.peak());
      }
    }
    if (group.size() < minimum) {
      return Optional.empty();
    }
    StringBuilder shared = new StringBuilder();
    basis.forEach((k, v) -> shared.append(shared.length() == 0 ? "" : ", ").append(k).append('=').append(v));
    return Optional.of(new LearnedPeak(withMargin(quantile(group)), group.size(), shared.toString()));
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

  /** The largest peak of each value of the key. */
  private static SortedMap<String, Long> largestPeaks(List<Sample> peaks, String key) {
    SortedMap<String, Long> largest = new TreeMap<>();
    for (Sample s : peaks) {
      String value = s.params().get(key);
      if (value != null) {
        largest.merge(value, s.peak(), Math::max);
      }
    }
    return largest;
  }

  /**
   * Whether the key matters: judged on tasks that differ in it alone where there are such, else on
   * the {@code largest} peak of each of its values.
   */
  private static boolean matters(List<Sample> peaks, String key, SortedMap<String, Long> largest) {
    SortedMap<String, SortedMap<String, Long>> byOthers = new TreeMap<>();
    for (Sample s : peaks) {
      String value = s.params().get(key);
      if (value != null) {
        SortedMap<String, String> others = new TreeMap<>(s.params());
        others.remove(key);
        byOthers.computeIfAbsent(others.toString(), k -> new TreeMap<>()).merge(value, s.peak(), Math::max);
      }
    }
    boolean comparable = false;
    for (SortedMap<String, Long> alike : byOthers.values()) {
      if (alike.size() >= 2) {
        comparable = true;
        if (apart(alike)) {
          return true;
        }
      }
    }
    return !comparable && apart(largest);
  }

  /** Whether two of the peaks differ by more than the margin. */
  private static boolean apart(SortedMap<String, Long> peakByValue) {
    if (peakByValue.size() < 2) {
      return false;
    }
    long low = peakByValue.values().stream().min(Long::compare).orElseThrow();
    long high = peakByValue.values().stream().max(Long::compare).orElseThrow();
    return high > MARGIN * low;
  }

  /** Whether some value of the key is shared by two tasks of the template (so it is not an index). */
  private static boolean repeats(List<SortedMap<String, String>> members, String key) {
    TreeSet<String> seen = new TreeSet<>();
    for (SortedMap<String, String> m : members) {
      String v = m.get(key);
      if (v != null && !seen.add(v)) {
        return true;
      }
    }
    return false;
  }
}
