package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.NOW;
import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WeightedPlacementTest {

  private final WeightedPlacement policy = new WeightedPlacement();

  @Test
  void theDeviceWithMoreFreeMemoryIsFirstMoreOftenInProportion() {
    List<DeviceState> devices = List.of(gpu(0, 10), gpu(1, 30));
    int firstIsOne = 0;
    int draws = 4000;
    for (long sequence = 0; sequence < draws; sequence++) {
      if (policy.order(devices, new PlacementRequest(1, NOW, 5, sequence)).get(0).index() == 1) {
        firstIsOne++;
      }
    }
    assertThat(firstIsOne / (double) draws)
        .as("30 of 40 GiB free: device 1 should lead about 75%% of %d draws, led %d", draws, firstIsOne)
        .isBetween(0.70, 0.80);
  }

  @Test
  void devicesWithNoFreeMemoryComeLastInIndexOrder() {
    List<DeviceState> devices = List.of(gpu(3, 0), gpu(0, 0), gpu(2, 1));
    assertThat(indices(policy.order(devices, new PlacementRequest(1, NOW, 5, 0))))
        .as("only device 2 has free memory; 0 and 3 follow by index").containsExactly(2, 0, 3);
  }

  @Test
  void theSameSeedAndSequenceGiveTheSameOrder() {
    List<DeviceState> devices = List.of(gpu(0, 10), gpu(1, 30), gpu(2, 20));
    PlacementRequest r = new PlacementRequest(1, NOW, 77, 12);
    assertThat(policy.order(devices, r)).isEqualTo(policy.order(List.of(devices.get(2), devices.get(0), devices.get(1)), r));
  }
}
