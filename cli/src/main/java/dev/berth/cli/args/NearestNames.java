package dev.berth.cli.args;

import java.util.List;

/** The names closest to a mistyped one ({@code rnu} for {@code run}), to suggest in the error. */
public final class NearestNames {

  private NearestNames() {}

  /**
   * The names at most two edits (an insertion, a deletion, a change or two neighbours swapped) from
   * {@code typed}, or that begin with it; the closest first.
   */
  public static List<String> to(String typed, List<String> names) {
    int most = Math.min(2, Math.max(1, typed.length() / 3));
    return names.stream()
        .filter(n -> distance(typed, n) <= most || (typed.length() >= 2 && n.startsWith(typed)))
        .sorted(java.util.Comparator.comparingInt(n -> distance(typed, n)))
        .toList();
  }

  /** The optimal string alignment distance: edits, counting two swapped neighbours as one. */
  static int distance(String a, String b) {
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
