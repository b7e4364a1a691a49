package dev.berth.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.scheduling.TemplatePeaks.LearnedPeak;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The learning rule is a fold that updates as each peak arrives; here it must say, after every
 * peak, exactly what the rule as written (docs/learning.md) says when it reads every peak afresh,
 * implemented below the plain way.
 */
class LearningRuleFoldTest {

  static LongStream seeds() {
    return LongStream.range(0, 150);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void theFoldLearnsWhatReadingEveryPeakAfreshLearns(long seed) {
    Random random = new Random(seed);
    List<SortedMap<String, String>> members = members(random);
    TemplateKeys keys = new TemplateKeys();
    members.forEach(keys::member);
    LearningRule fold = new LearningRule(keys);
    List<SortedMap<String, String>> peakParams = new ArrayList<>();
    List<Long> peaks = new ArrayList<>();
    int minimum = 1 + random.nextInt(4);
    boolean bsMatters = random.nextBoolean();
    for (int n = 0; n < 40; n++) {
      SortedMap<String, String> p = members.get(random.nextInt(members.size()));
      long base = bsMatters && p.containsKey("bs") ? Long.parseLong(p.get("bs")) * 100 : 300;
      long peak = (base + random.nextInt(bsMatters ? 10 : 150)) << 20;
      fold.add(p, peak);
      peakParams.add(p);
      peaks.add(peak);
      for (SortedMap<String, String> asked : members) {
        assertThat(fold.learn(asked, minimum))
            .as("seed %d after %d peaks, task %s", seed, n + 1, asked)
            .isEqualTo(reference(peakParams, peaks, members, asked, minimum));
      }
    }
  }

  /** A template of a few tasks over keys that repeat ({@code bs}, {@code seed}) or name each task ({@code idx}). */
  private static List<SortedMap<String, String>> members(Random random) {
    List<SortedMap<String, String>> members = new ArrayList<>();
    int bsValues = 1 + random.nextInt(3);
    int seedValues = 1 + random.nextInt(3);
    boolean index = random.nextBoolean();
    boolean ragged = random.nextInt(5) == 0;
    for (int b = 0; b < bsValues; b++) {
      for (int s = 0; s < seedValues; s++) {
        SortedMap<String, String> p = new TreeMap<>();
        p.put("bs", Integer.toString(1 << b));
        if (!(ragged && s == 0)) {
          p.put("seed", Integer.toString(s));
        }
        if (index) {
          p.put("idx", b + "." + s);
        }
        members.add(p);
      }
    }
    return members;
  }

  /** The rule read straight from its text, over every peak. */
  private static Optional<LearnedPeak> reference(List<SortedMap<String, String>> params, List<Long> peaks,
      List<SortedMap<String, String>> members, SortedMap<String, String> asked, int minimum) {
    if (peaks.size() < minimum) {
      return Optional.empty();
    }
    SortedMap<String, String> basis = new TreeMap<>();
    for (Map.Entry<String, String> e : asked.entrySet()) {
      String key = e.getKey();
      TreeSet<String> seen = new TreeSet<>();
      boolean repeats = members.stream().map(m -> m.get(key)).anyMatch(v -> v != null && !seen.add(v));
      if (!repeats) {
        continue;
      }
      SortedMap<String, Long> largest = new TreeMap<>();
      SortedMap<String, SortedMap<String, Long>> alike = new TreeMap<>();
      for (int i = 0; i < peaks.size(); i++) {
        String v = params.get(i).get(key);
        if (v != null) {
          largest.merge(v, peaks.get(i), Math::max);
          SortedMap<String, String> others = new TreeMap<>(params.get(i));
          others.remove(key);
          alike.computeIfAbsent(others.toString(), k -> new TreeMap<>()).merge(v, peaks.get(i), Math::max);
        }
      }
      if (largest.size() < 2 && !largest.containsKey(e.getValue())) {
        return Optional.empty();
      }
      boolean comparable = alike.values().stream().anyMatch(m -> m.size() >= 2);
      boolean matters = alike.values().stream().anyMatch(LearningRuleFoldTest::apart) || !comparable && apart(largest);
      if (matters) {
        basis.put(key, e.getValue());
      }
    }
    List<Long> group = new ArrayList<>();
    for (int i = 0; i < peaks.size(); i++) {
      SortedMap<String, String> p = params.get(i);
      if (basis.entrySet().stream().allMatch(b -> b.getValue().equals(p.get(b.getKey())))) {
        group.add(peaks.get(i));
      }
    }
    if (group.size() < minimum) {
      return Optional.empty();
    }
    StringBuilder shared = new StringBuilder();
    basis.forEach((k, v) -> shared.append(shared.length() == 0 ? "" : ", ").append(k).append('=').append(v));
    return Optional.of(new LearnedPeak(LearningRule.withMargin(LearningRule.quantile(group)), group.size(),
        shared.toString()));
  }

  private static boolean apart(SortedMap<String, Long> peakByValue) {
    if (peakByValue.size() < 2) {
      return false;
    }
    long low = peakByValue.values().stream().min(Long::compare).orElseThrow();
    long high = peakByValue.values().stream().max(Long::compare).orElseThrow();
    return high > LearningRule.MARGIN * low;
  }
}
