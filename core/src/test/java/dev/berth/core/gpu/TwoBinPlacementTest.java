package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.NOW;
import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TwoBinPlacementTest {

  private final TwoBinPlacement policy = new TwoBinPlacement();

  @Test
  void ofTwoDevicesTheLessLoadedComesFirst() {
    List<DeviceState> two = List.of(gpu(0, 70).withBerthTasks(4), gpu(1, 10).withBerthTasks(1));
    for (long sequence = 0; sequence < 20; sequence++) {
      assertThat(indices(policy.order(two, request(sequence))))
          .as("both are always drawn; device 1 runs 1 task against 4 (sequence %d)", sequence)
          .containsExactly(1, 0);
    }
  }

  @Test
  void equalLoadsPreferMoreFreeMemory() {
    List<DeviceState> two = List.of(gpu(0, 10).withBerthTasks(2), gpu(1, 60).withBerthTasks(2));
    assertThat(indices(policy.order(two, request(7)))).as("2 tasks each; 60 GiB free beats 10").containsExactly(1, 0);
  }

  @Test
  void theMostLoadedDeviceIsNeverFirstWhenThereAreTwoOrMore() {
    List<DeviceState> four = List.of(
        gpu(0, 10).withBerthTasks(0), gpu(1, 10).withBerthTasks(1), gpu(2, 10).withBerthTasks(2), gpu(3, 10).withBerthTasks(9));
    Set<Integer> firsts = new HashSet<>();
    for (long sequence = 0; sequence < 200; sequence++) {
      List<Integer> order = indices(policy.order(four, new PlacementRequest(1, NOW, 3, sequence)));
      assertThat(order).containsExactlyInAnyOrder(0, 1, 2, 3);
      firsts.add(order.get(0));
    }
    assertThat(firsts).as("device 3 (9 tasks) loses every pair it is drawn into").doesNotContain(3)
        .as("devices 1 and 2 win when drawn with a busier one").contains(0, 1, 2);
  }

  @Test
  void theRestFollowInLeastLoadOrder() {
    List<DeviceState> four = List.of(
        gpu(0, 10).withBerthTasks(5), gpu(1, 10).withBerthTasks(3), gpu(2, 10).withBerthTasks(1), gpu(3, 10).withBerthTasks(2));
    List<Integer> order = indices(policy.order(four, request(11)));
    List<Integer> rest = order.subList(2, 4);
    int loadA = four.get(rest.get(0)).berthTasks();
    int loadB = four.get(rest.get(1)).berthTasks();
    assertThat(loadA).as("the two not drawn, %s, come fewest tasks first", rest).isLessThanOrEqualTo(loadB);
  }

  @Test
  void oneCandidateIsReturnedAsItIs() {
    assertThat(indices(policy.order(List.of(gpu(5, 10)), request()))).containsExactly(5);
    assertThat(policy.order(List.of(), request())).isEmpty();
  }
}
