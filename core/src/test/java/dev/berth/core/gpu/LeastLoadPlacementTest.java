package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeastLoadPlacementTest {

  private final LeastLoadPlacement policy = new LeastLoadPlacement();

  @Test
  void leastLoadPutsTheDeviceWithFewestBerthTasksFirst() {
    List<DeviceState> order = policy.order(
        List.of(gpu(0, 70).withBerthTasks(3), gpu(1, 5).withBerthTasks(0), gpu(2, 40).withBerthTasks(1)), request());
    assertThat(indices(order)).as("0, 1, 3 tasks: free memory plays no part").containsExactly(1, 2, 0);
  }

  @Test
  void equalLoadsAreOrderedByIndex() {
    List<DeviceState> order = policy.order(List.of(gpu(2, 70).withBerthTasks(1), gpu(1, 5).withBerthTasks(1)), request());
    assertThat(indices(order)).as("one task each").containsExactly(1, 2);
  }
}
