package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.NOW;
import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomPlacementTest {

  private final RandomPlacement policy = new RandomPlacement();
  private final List<DeviceState> four = List.of(gpu(0, 10), gpu(1, 10), gpu(2, 10), gpu(3, 10));

  @Test
  void theSameSeedAndSequenceGiveTheSameOrder() {
    PlacementRequest r = new PlacementRequest(1, NOW, 99, 5);
    assertThat(policy.order(four, r)).isEqualTo(policy.order(List.of(four.get(3), four.get(1), four.get(0), four.get(2)), r));
  }

  @Test
  void everyDeviceIsReturnedOnce() {
    assertThat(indices(policy.order(four, new PlacementRequest(1, NOW, 1, 0)))).containsExactlyInAnyOrder(0, 1, 2, 3);
  }

  @Test
  void differentSequencesGiveDifferentOrdersAndEveryDeviceGetsToBeFirst() {
    Set<List<Integer>> orders = new HashSet<>();
    Set<Integer> firsts = new HashSet<>();
    for (long sequence = 0; sequence < 200; sequence++) {
      List<Integer> order = indices(policy.order(four, new PlacementRequest(1, NOW, 42, sequence)));
      orders.add(order);
      firsts.add(order.get(0));
    }
    assertThat(firsts).as("200 draws over 4 devices put each first at least once").containsExactlyInAnyOrder(0, 1, 2, 3);
    assertThat(orders.size()).as("200 draws reach many of the 24 permutations").isGreaterThan(12);
  }
}
