package dev.berth.core.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

class PlacementPolicyPropertyTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  @Provide
  Arbitrary<String> policyNames() {
    return Arbitraries.of(new ArrayList<>(PlacementPolicies.names()));
  }

  @Provide
  Arbitrary<List<DeviceState>> devices() {
    Arbitrary<Instant> times = Arbitraries.longs().between(-30_000, 30_000).map(NOW::plusMillis).injectNull(0.3);
    Arbitrary<DeviceState> device = Combinators.combine(
            Arbitraries.longs().between(0, 96),
            Arbitraries.longs().between(0, 96),
            Arbitraries.integers().between(0, 5),
            times,
            times)
        .as((total, free, tasks, placed, since) ->
            new DeviceState(0, total << 30, free << 30, 0, tasks, placed, since));
    return Combinators.combine(
            Arbitraries.integers().between(0, 15).set().ofMaxSize(8),
            device.list().ofSize(16))
        .as((indices, states) -> {
          List<DeviceState> out = new ArrayList<>();
          for (int index : indices) {
            DeviceState s = states.get(index);
            out.add(new DeviceState(index, s.totalMemoryBytes(), s.freeMemoryBytes(), s.reservedMemoryBytes(),
                s.berthTasks(), s.lastPlacedAt(), s.freeSince()));
          }
          return out;
        });
  }

  @Property(tries = 400)
  void everyPolicyAnswersWithEachCandidateAtMostOnce(
      @ForAll("policyNames") String name,
      @ForAll("devices") List<DeviceState> fitting,
      @ForAll long seed,
      @ForAll @LongRange(min = 0, max = 1_000_000) long sequence) {
    List<DeviceState> order = PlacementPolicies.byName(name).order(fitting, new PlacementRequest(1, NOW, seed, sequence));

    assertThat(fitting).as("%s returned a device it was not given", name).containsAll(order);
    Set<Integer> seen = new HashSet<>();
    for (DeviceState d : order) {
      assertThat(seen.add(d.index())).as("%s returned device %d twice", name, d.index()).isTrue();
    }
  }

  @Property(tries = 400)
  void everyPolicyIsDeterministicAndIgnoresTheListOrder(
      @ForAll("policyNames") String name,
      @ForAll("devices") List<DeviceState> fitting,
      @ForAll long seed,
      @ForAll @LongRange(min = 0, max = 1_000_000) long sequence,
      @ForAll long shuffleSeed) {
    PlacementRequest request = new PlacementRequest(1, NOW, seed, sequence);
    List<DeviceState> shuffled = new ArrayList<>(fitting);
    Collections.shuffle(shuffled, new Random(shuffleSeed));

    List<DeviceState> first = PlacementPolicies.byName(name).order(fitting, request);
    List<DeviceState> again = PlacementPolicies.byName(name).order(fitting, request);
    List<DeviceState> fromShuffled = PlacementPolicies.byName(name).order(shuffled, request);

    assertThat(again).as("%s twice on equal inputs", name).isEqualTo(first);
    assertThat(fromShuffled).as("%s on the same devices listed in another order", name).isEqualTo(first);
  }

  @Property(tries = 200)
  void policiesThatDropNothingReturnEveryCandidate(
      @ForAll("policyNames") String name,
      @ForAll("devices") List<DeviceState> fitting,
      @ForAll long seed) {
    if (name.startsWith("auto")) {
      return;
    }
    List<DeviceState> order = PlacementPolicies.byName(name).order(fitting, new PlacementRequest(1, NOW, seed, 0));
    assertThat(order).as("%s keeps every candidate", name).hasSameSizeAs(fitting);
  }
}
