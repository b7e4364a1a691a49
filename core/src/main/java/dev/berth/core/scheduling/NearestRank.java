package dev.berth.core.scheduling;

import java.util.Collections;
import java.util.PriorityQueue;

/**
 * The {@link LearningRule#QUANTILE} of a growing set of peaks by nearest rank, kept up to date as
 * each peak arrives (two heaps split at the rank), so reading it never sorts. Not thread-safe.
 */
final class NearestRank {

  /** The peaks at or below the rank, largest first: its head is the quantile. */
  private final PriorityQueue<Long> low = new PriorityQueue<>(Collections.reverseOrder());
  private final PriorityQueue<Long> high = new PriorityQueue<>();

  /** Takes one more peak. */
  void add(long peak) {
    if (low.isEmpty() || peak <= low.peek()) {
      low.add(peak);
    } else {
      high.add(peak);
    }
    int rank = Math.max(1, (int) Math.ceil(LearningRule.QUANTILE * size()));
    while (low.size() > rank) {
      high.add(low.poll());
    }
    while (low.size() < rank) {
      low.add(high.poll());
    }
  }

  /** How many peaks it holds. */
  int size() {
    return low.size() + high.size();
  }

  /** The quantile; at least one peak must have been added. */
  long quantile() {
    return low.element();
  }
}
