package dev.berth.core.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The cartesian product of a matrix, as specs and the Java API expand it. Pure. */
public final class Combinations {

  private Combinations() {}

  /**
   * Every combination of values, in the order the variables are given, the last varying fastest:
   * {lr=0.1, seed=1}, {lr=0.1, seed=2}, {lr=0.01, seed=1}, ...
   *
   * @param variables each variable's values, in an order-keeping map
   */
  public static List<Map<String, String>> of(Map<String, List<String>> variables) {
    List<Map<String, String>> result = new ArrayList<>();
    result.add(Map.of());
    for (Map.Entry<String, List<String>> variable : variables.entrySet()) {
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> partial : result) {
        for (String value : variable.getValue()) {
          Map<String, String> combination = new LinkedHashMap<>(partial);
          combination.put(variable.getKey(), value);
          next.add(combination);
        }
      }
      result = next;
    }
    return result;
  }
}
