package dev.berth.core.settings;

import dev.berth.core.settings.PlaceholderText;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Task ids made from an id pattern and a matrix: the rule when two combinations make the same id. */
public final class MatrixIds {

  private MatrixIds() {}

  /**
   * Why {@code idPattern} cannot be used with {@code matrix}: it gives {@code id} for both
   * combinations, and how to fix it, e.g. {@code "'t-{lr}' gives the same id 't-1' for (lr=1,
   * seed=1) and (lr=1, seed=2); add {seed} to the id"}.
   */
  public static String sameId(String idPattern, Map<String, List<String>> matrix, String id, Map<String, String> first,
      Map<String, String> second) {
    List<String> missing = matrix.entrySet().stream()
        .filter(e -> e.getValue().size() > 1 && !PlaceholderText.names(idPattern).contains(e.getKey()))
        .map(e -> "{" + e.getKey() + "}")
        .toList();
    String fix = missing.isEmpty()
        ? "make the id tell the combinations apart"
        : "add " + String.join(", ", missing) + " to the id";
    return "'" + idPattern + "' gives the same id '" + id + "' for (" + describe(first) + ") and (" + describe(second)
        + "); " + fix;
  }

  /** Values as {@code lr=0.1, seed=1}. */
  public static String describe(Map<String, String> values) {
    return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
  }
}
