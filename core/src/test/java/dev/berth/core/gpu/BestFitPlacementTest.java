package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BestFitPlacementTest {

  private final BestFitPlacement policy = new BestFitPlacement();

  @Test
  void bestFitPicksTheTightestDeviceThatStillFits() {
    List<DeviceState> order = policy.order(List.of(gpu(0, 70), gpu(1, 3), gpu(2, 20)), request());
    assertThat(indices(order)).as("free 3 GiB, then 20, then 70").containsExactly(1, 2, 0);
  }

  @Test
  void equalFreeMemoryIsOrderedByIndex() {
    List<DeviceState> order = policy.order(List.of(gpu(3, 10), gpu(1, 10), gpu(2, 50)), request());
    assertThat(indices(order)).as("devices 1 and 3 both have 10 GiB free: lower index first").containsExactly(1, 3, 2);
  }
}
