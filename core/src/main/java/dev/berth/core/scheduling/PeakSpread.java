package dev.berth.core.scheduling;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The largest peak of each value of a matrix key among some tasks, with the smallest and largest
 * of those maxima at hand, so whether two values' peaks lie more than {@link LearningRule#MARGIN}
 * apart is known without looking at every value. Not thread-safe.
 */
final class PeakSpread {

  private final SortedMap<String, Long> largest = new TreeMap<>();
  /** How many values have each largest peak: a multiset of {@link #largest}'s values. */
  private final TreeMap<Long, Integer> maxima = new TreeMap<>();

  /** Takes a peak of a task with {@code value}. */
  void add(String value, long peak) {
    Long before = largest.get(value);
    if (before != null && before >= peak) {
      return;
    }
    largest.put(value, peak);
    if (before != null) {
      maxima.computeIfPresent(before, (k, n) -> n == 1 ? null : n - 1);
    }
    maxima.merge(peak, 1, Integer::sum);
  }

  /** How many values have a peak. */
  int values() {
    return largest.size();
  }

  /** Whether {@code value} has a peak. */
  boolean has(String value) {
    return largest.containsKey(value);
  }

  /** Whether two values' largest peaks differ by more than the margin. */
  boolean apart() {
    return largest.size() >= 2 && maxima.lastKey() > LearningRule.MARGIN * maxima.firstKey();
  }
}
