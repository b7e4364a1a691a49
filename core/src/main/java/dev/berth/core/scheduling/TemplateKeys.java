package dev.berth.core.scheduling;

import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which matrix keys of a template <em>repeat</em>: some value of the key is shared by two of its
 * tasks (as {@code bs} and {@code seed} in a {@code bs x seed} sweep, not an index naming each task
 * alone). Kept up to date as tasks join the template. Not thread-safe.
 */
final class TemplateKeys {

  private final SortedMap<String, SortedSet<String>> seen = new TreeMap<>();
  private final SortedSet<String> repeating = new TreeSet<>();

  /** Counts a task of the template with these parameter values. */
  void member(SortedMap<String, String> params) {
    for (Map.Entry<String, String> e : params.entrySet()) {
      if (repeating.contains(e.getKey())) {
        continue;
      }
      if (!seen.computeIfAbsent(e.getKey(), k -> new TreeSet<>()).add(e.getValue())) {
        repeating.add(e.getKey());
        seen.remove(e.getKey()); // a key that repeats stays so: its values need not be kept
      }
    }
  }

  /** Whether the key repeats. */
  boolean repeats(String key) {
    return repeating.contains(key);
  }
}
