package dev.berth.core.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random candidate lists under every built-in policy (each seed checks all of them): answers hold
 * only given devices, each at most once, are the same for equal inputs in any order, and keep every
 * candidate unless the policy may drop some.
 */
class PlacementPolicyPropertyTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  static LongStream seeds() {
    return LongStream.range(0, 400);
  }

  static LongStream fewerSeeds() {
    return LongStream.range(0, 200);
  }

  /** An int in [min, max]; one time in eight min or max, otherwise uniform. */
  private static int between(Random rnd, int min, int max) {
    if (rnd.nextInt(8) == 0) {
      return rnd.nextBoolean() ? min : max;
    }
    return rnd.nextInt(min, max + 1);
  }

  /** Any long; one time in eight an edge: 0, 1, -1, Long.MIN_VALUE or Long.MAX_VALUE. */
  private static long anyLong(Random rnd) {
    if (rnd.nextInt(8) == 0) {
      long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE};
      return edges[rnd.nextInt(edges.length)];
    }
    return rnd.nextLong();
  }

  /** A sequence number in [0, 1_000_000]; one time in eight 0, 1 or 1_000_000. */
  private static long sequence(Random rnd) {
    if (rnd.nextInt(8) == 0) {
      long[] edges = {0, 1, 1_000_000};
      return edges[rnd.nextInt(edges.length)];
    }
    return rnd.nextLong(1_000_001);
  }

  /** Within 30 s of now either way, or (three times in ten) never. */
  private static Instant time(Random rnd) {
    return rnd.nextInt(10) < 3 ? null : NOW.plusMillis(rnd.nextLong(-30_000, 30_001));
  }

  /**
   * Up to 8 devices with distinct indices in [0, 15], listed in random order; totals and free
   * memory in [0, 96] GiB drawn independently (free may exceed total: the record clamps it), 0 to 5
   * Berth tasks, and placement and free-since times near now or absent. One time in eight the list
   * is empty or full.
   */
  private static List<DeviceState> devices(Random rnd) {
    List<Integer> indices = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      indices.add(i);
    }
    Collections.shuffle(indices, rnd);
    int count = between(rnd, 0, 8);
    List<DeviceState> out = new ArrayList<>();
    for (int index : indices.subList(0, count)) {
      long total = between(rnd, 0, 96);
      long free = between(rnd, 0, 96);
      out.add(new DeviceState(index, total << 30, free << 30, 0, between(rnd, 0, 5), time(rnd), time(rnd)));
    }
    return out;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyPolicyAnswersWithEachCandidateAtMostOnce(long seed) {
    Random rnd = new Random(seed);
    List<DeviceState> fitting = devices(rnd);
    PlacementRequest request = new PlacementRequest(1, NOW, anyLong(rnd), sequence(rnd));
    for (String name : PlacementPolicies.names()) {
      List<DeviceState> order = PlacementPolicies.byName(name).order(fitting, request);

      assertThat(fitting).as("seed %d: %s returned a device it was not given", seed, name).containsAll(order);
      Set<Integer> seen = new HashSet<>();
      for (DeviceState d : order) {
        assertThat(seen.add(d.index())).as("seed %d: %s returned device %d twice", seed, name, d.index()).isTrue();
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyPolicyIsDeterministicAndIgnoresTheListOrder(long seed) {
    Random rnd = new Random(seed);
    List<DeviceState> fitting = devices(rnd);
    PlacementRequest request = new PlacementRequest(1, NOW, anyLong(rnd), sequence(rnd));
    List<DeviceState> shuffled = new ArrayList<>(fitting);
    Collections.shuffle(shuffled, new Random(anyLong(rnd)));
    for (String name : PlacementPolicies.names()) {
      List<DeviceState> first = PlacementPolicies.byName(name).order(fitting, request);
      List<DeviceState> again = PlacementPolicies.byName(name).order(fitting, request);
      List<DeviceState> fromShuffled = PlacementPolicies.byName(name).order(shuffled, request);

      assertThat(again).as("seed %d: %s twice on equal inputs", seed, name).isEqualTo(first);
      assertThat(fromShuffled).as("seed %d: %s on the same devices listed in another order", seed, name)
          .isEqualTo(first);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("fewerSeeds")
  void policiesThatDropNothingReturnEveryCandidate(long seed) {
    Random rnd = new Random(seed);
    List<DeviceState> fitting = devices(rnd);
    PlacementRequest request = new PlacementRequest(1, NOW, anyLong(rnd), 0);
    for (String name : PlacementPolicies.names()) {
      if (name.startsWith("auto")) {
        continue;
      }
      List<DeviceState> order = PlacementPolicies.byName(name).order(fitting, request);
      assertThat(order).as("seed %d: %s keeps every candidate", seed, name).hasSameSizeAs(fitting);
    }
  }
}
