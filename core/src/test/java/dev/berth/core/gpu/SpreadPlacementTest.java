package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.GIB;
import static dev.berth.core.gpu.PolicyFixtures.NOW;
import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadPlacementTest {

  private final SpreadPlacement policy = new SpreadPlacement();

  private static PlacementRequest asking(long gib, long keepRoomGiB) {
    return new PlacementRequest(gib * GIB, NOW, 42, 0, keepRoomGiB * GIB);
  }

  @Test
  void theDeviceRunningTheFewestBerthTasksComesFirstThoughAnotherFitsTighter() {
    List<DeviceState> order = policy.order(List.of(gpu(0, 10).withBerthTasks(2), gpu(1, 60).withBerthTasks(0),
        gpu(2, 30).withBerthTasks(1)), request());
    assertThat(indices(order)).containsExactly(1, 2, 0);
  }

  @Test
  void equallyBusyDevicesAreOrderedByBestFitThenIndex() {
    List<DeviceState> order = policy.order(List.of(gpu(0, 70).withBerthTasks(1), gpu(1, 20).withBerthTasks(1),
        gpu(3, 20).withBerthTasks(1), gpu(2, 40).withBerthTasks(1)), request());
    assertThat(indices(order)).containsExactly(1, 3, 2, 0);
  }

  @Test
  void aDeviceThatKeepsRoomForTheLargestWaitingTaskComesBeforeOneThatWouldFragmentEveryDevice() {
    // Device 1 is idle, but 4 GiB there leaves 16 free on each device and the 20 GiB task could go nowhere.
    List<DeviceState> order = policy.order(List.of(gpu(0, 24, 16).withBerthTasks(1), gpu(1, 24, 20)),
        asking(4, 20));
    assertThat(indices(order)).containsExactly(0, 1);
  }

  @Test
  void theWaitingTaskIsIgnoredWhenNoDeviceHasRoomForItAnyway() {
    List<DeviceState> order = policy.order(List.of(gpu(0, 24, 16).withBerthTasks(1), gpu(1, 24, 18)),
        asking(4, 20));
    assertThat(indices(order)).containsExactly(1, 0);
  }

  @Test
  void spreadingGoesOnWhileAnotherDeviceKeepsTheRoom() {
    List<DeviceState> order = policy.order(List.of(gpu(0, 80, 80).withBerthTasks(1), gpu(1, 80, 70),
        gpu(2, 80, 75).withBerthTasks(2)), asking(10, 70));
    assertThat(indices(order)).containsExactly(1, 0, 2);
  }
}
