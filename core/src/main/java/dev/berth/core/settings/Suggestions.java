package dev.berth.core.settings;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** Finds the valid name a user most likely meant, by edit distance. */
public final class Suggestions {

  private Suggestions() {}

  /** The rule for an unknown key: a "did you mean" when one is close, else the valid keys. */
  public static String unknownKey(String given, Collection<String> valid) {
    return unknownKey(given, valid, valid);
  }

  /**
   * The rule for an unknown key: a "did you mean" when one of {@code candidates} is close, else
   * the {@code listed} keys (a shorter list, when the candidates are too many to read).
   */
  public static String unknownKey(String given, Collection<String> candidates, Collection<String> listed) {
    return "unknown key '" + given + "'; " + nearest(given, candidates)
        .map(s -> "did you mean '" + s + "'?")
        .orElse("valid keys are: " + String.join(", ", listed));
  }

  /** The candidate closest to {@code given}, if one is close enough to be a likely typo. */
  public static Optional<String> nearest(String given, Collection<String> candidates) {
    String g = given.toLowerCase(Locale.ROOT).replace('_', '-');
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      String c = candidate.toLowerCase(Locale.ROOT);
      int d = distance(g, c);
      // A key with a word added to a valid one ("follow-all" for follow, whose flags go inside it) is
      // likely that key too.
      boolean close = d <= Math.max(1, g.length() / 3) || (g.length() >= 3 && c.startsWith(g))
          || (c.length() >= 3 && g.startsWith(c + "-"));
      if (close && d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Optimal string alignment distance: edits, where swapping two neighbours counts as one. */
  public static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
