package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.NOW;
import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AutoPlacementTest {

  private final AutoPlacement policy = new AutoPlacement();

  @Test
  void theDefaultsAreFlgosFiveSeconds() {
    assertThat(policy.putInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(policy.availableInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(policy.toString()).contains("PT5S");
  }

  @Test
  void devicesWithoutHistoryAreSortedByFreeMemoryDescending() {
    List<DeviceState> order = policy.order(List.of(gpu(0, 10), gpu(1, 70), gpu(2, 30), gpu(3, 70)), request());
    assertThat(indices(order)).as("70, 70 (ties by index), 30, 10 GiB free: truly sorted").containsExactly(1, 3, 2, 0);
  }

  @Test
  void aDevicePlacedOnWithinThePutIntervalIsDropped() {
    DeviceState justUsed = gpu(0, 70).withLastPlacedAt(NOW.minusSeconds(4));
    DeviceState usedLongAgo = gpu(1, 10).withLastPlacedAt(NOW.minusSeconds(60));
    assertThat(indices(policy.order(List.of(justUsed, usedLongAgo), request())))
        .as("device 0 was placed on 4 s ago, under the 5 s put interval").containsExactly(1);
  }

  @Test
  void aDevicePlacedOnExactlyThePutIntervalAgoIsKept() {
    DeviceState d = gpu(0, 70).withLastPlacedAt(NOW.minusSeconds(5));
    assertThat(indices(policy.order(List.of(d), request()))).as("5 s ago is not less than 5 s").containsExactly(0);
  }

  @Test
  void aDeviceFreedLessThanTheAvailableIntervalAgoIsDropped() {
    DeviceState freshlyFree = gpu(0, 70).withFreeSince(NOW.minusMillis(4_999));
    DeviceState longFree = gpu(1, 10).withFreeSince(NOW.minusSeconds(5));
    assertThat(indices(policy.order(List.of(freshlyFree, longFree), request())))
        .as("device 0 has had room for 4.999 s, device 1 for exactly 5 s").containsExactly(1);
  }

  @Test
  void timesAfterNowCountAsJustNow() {
    DeviceState future = gpu(0, 70).withLastPlacedAt(NOW.plusSeconds(30));
    assertThat(policy.order(List.of(future), request())).as("a clock step back must not free the device").isEmpty();
  }

  @Test
  void zeroIntervalsTurnBothRulesOff() {
    AutoPlacement eager = new AutoPlacement(Duration.ZERO, Duration.ZERO);
    DeviceState d = gpu(0, 70).withLastPlacedAt(NOW.plusSeconds(1)).withFreeSince(NOW);
    assertThat(indices(eager.order(List.of(d), request()))).containsExactly(0);
  }

  @Test
  void configuredIntervalsAreUsed() {
    AutoPlacement slow = new AutoPlacement(Duration.ofSeconds(30), Duration.ofSeconds(1));
    DeviceState placed20sAgo = gpu(0, 70).withLastPlacedAt(NOW.minusSeconds(20));
    DeviceState free2s = gpu(1, 50).withFreeSince(NOW.minusSeconds(2));
    assertThat(indices(slow.order(List.of(placed20sAgo, free2s), request())))
        .as("20 s < 30 s put interval drops device 0; 2 s >= 1 s available interval keeps device 1")
        .containsExactly(1);
  }

  @Test
  void everyDeviceHeldBackMeansWait() {
    DeviceState d = gpu(0, 70).withLastPlacedAt(NOW);
    assertThat(policy.order(List.of(d), request())).isEmpty();
  }

  @Test
  void negativeIntervalsAreRejected() {
    assertThatThrownBy(() -> new AutoPlacement(Duration.ofSeconds(-1), Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new AutoPlacement(Duration.ZERO, Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
  }
}
