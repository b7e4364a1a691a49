package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.NOW;
import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeastRecentlyUsedPlacementTest {

  private final LeastRecentlyUsedPlacement policy = new LeastRecentlyUsedPlacement();

  @Test
  void lruPutsNeverPlacedDevicesFirstThenTheOldestPlacement() {
    List<DeviceState> order = policy.order(List.of(
        gpu(0, 10).withLastPlacedAt(NOW.minusSeconds(10)),
        gpu(1, 10).withLastPlacedAt(NOW.minusSeconds(300)),
        gpu(2, 10),
        gpu(3, 10).withLastPlacedAt(NOW)), request());
    assertThat(indices(order)).as("never, then 300 s ago, 10 s ago, now").containsExactly(2, 1, 0, 3);
  }

  @Test
  void equalTimesAreOrderedByIndex() {
    List<DeviceState> order = policy.order(
        List.of(gpu(4, 10).withLastPlacedAt(NOW), gpu(3, 10), gpu(2, 10).withLastPlacedAt(NOW), gpu(1, 10)), request());
    assertThat(indices(order)).as("never-placed 1, 3 then placed-now 2, 4").containsExactly(1, 3, 2, 4);
  }
}
