package dev.berth.core.pool;

import java.util.List;
import java.util.Locale;
import java.util.function.IntUnaryOperator;

/**
 * How a pool chooses the engine for a call among those below their high-water mark, the schemes of
 * IPython parallel's task scheduler. A pure function: the random schemes draw from the source they are
 * given, so a seeded source makes every choice repeatable.
 */
public enum WorkerScheme {
  /** The engine with the fewest calls in flight; ties go to the one used least recently. */
  LEASTLOAD,
  /** The engine used least recently. */
  LRU,
  /** Any engine, uniformly at random. */
  PLAINRANDOM,
  /** At random, weighted towards engines with fewer calls in flight. */
  WEIGHTED,
  /** Two engines at random, then the one used least recently of the two. */
  TWOBIN;

  /**
   * An engine as a scheme sees it.
   *
   * @param inFlight calls sent to it and not yet answered
   * @param lastUsed when it was last given a call, as a sequence number (lower is longer ago)
   */
  public record Load(int inFlight, long lastUsed) {}

  /** The scheme called {@code name} ({@code leastload}, {@code lru}, {@code plainrandom}, {@code weighted}, {@code twobin}). */
  public static WorkerScheme named(String name) {
    for (WorkerScheme s : values()) {
      if (s.toString().equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("must be leastload, lru, plainrandom, weighted or twobin, not '" + name + "'");
  }

  /**
   * The index of the engine to use among {@code engines}.
   *
   * @param engines the candidates, at least one
   * @param random draws a number in {@code [0, bound)} for a bound
   */
  public int choose(List<Load> engines, IntUnaryOperator random) {
    if (engines.isEmpty()) {
      throw new IllegalArgumentException("no engine to choose from");
    }
    return switch (this) {
      case LEASTLOAD -> best(engines, 0, engines.size(), true);
      case LRU -> best(engines, 0, engines.size(), false);
      case PLAINRANDOM -> random.applyAsInt(engines.size());
      case WEIGHTED -> weighted(engines, random);
      case TWOBIN -> {
        int a = random.applyAsInt(engines.size());
        int b = random.applyAsInt(engines.size());
        yield engines.get(a).lastUsed() <= engines.get(b).lastUsed() ? a : b;
      }
    };
  }

  private static int best(List<Load> engines, int from, int to, boolean byLoad) {
    int best = from;
    for (int i = from + 1; i < to; i++) {
      Load l = engines.get(i);
      Load b = engines.get(best);
      boolean better = byLoad && l.inFlight() != b.inFlight() ? l.inFlight() < b.inFlight() : l.lastUsed() < b.lastUsed();
      if (better) {
        best = i;
      }
    }
    return best;
  }

  /** Weights 1 / (1 + calls in flight), in thousandths so the draw stays whole. */
  private static int weighted(List<Load> engines, IntUnaryOperator random) {
    int[] weights = new int[engines.size()];
    int total = 0;
    for (int i = 0; i < weights.length; i++) {
      weights[i] = 1000 / (1 + engines.get(i).inFlight());
      total += weights[i];
    }
    int draw = random.applyAsInt(total);
    for (int i = 0; i < weights.length; i++) {
      draw -= weights[i];
      if (draw < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
