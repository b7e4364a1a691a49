package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MostFreePlacementTest {

  private final MostFreePlacement policy = new MostFreePlacement();

  @Test
  void mostFreeOrdersByFreeMemoryDescending() {
    List<DeviceState> order = policy.order(List.of(gpu(0, 3), gpu(1, 70), gpu(2, 20)), request());
    assertThat(indices(order)).as("free 70 GiB, then 20, then 3").containsExactly(1, 2, 0);
  }

  @Test
  void equalFreeMemoryIsOrderedByIndex() {
    List<DeviceState> order = policy.order(List.of(gpu(2, 40), gpu(0, 40)), request());
    assertThat(indices(order)).as("both 40 GiB free").containsExactly(0, 2);
  }
}
