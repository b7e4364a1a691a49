package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DeviceStateTest {

  @Test
  void freeMemoryIsClampedIntoZeroToTotal() {
    assertThat(DeviceState.of(0, 100, -20).freeMemoryBytes())
        .as("reservations beyond the observed free memory leave 0, not a negative figure").isZero();
    assertThat(DeviceState.of(0, 100, 130).freeMemoryBytes()).isEqualTo(100);
  }

  @Test
  void fitsComparesWithFreeMemory() {
    DeviceState d = DeviceState.of(0, 100, 40);
    assertThat(d.fits(40)).as("40 of 40 free fits exactly").isTrue();
    assertThat(d.fits(41)).isFalse();
  }

  @Test
  void withersChangeOneField() {
    DeviceState d = DeviceState.of(2, 100, 40).withBerthTasks(3).withReserved(20).withLastPlacedAt(NOW).withFreeSince(NOW);
    assertThat(d).isEqualTo(new DeviceState(2, 100, 40, 20, 3, NOW, NOW));
    assertThat(d.id()).isEqualTo("cuda:2");
  }

  @Test
  void impossibleStatesAreRejected() {
    assertThatThrownBy(() -> DeviceState.of(-1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DeviceState(0, 1, 1, -1, 0, null, null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DeviceState(0, 1, 1, 0, -1, null, null)).isInstanceOf(IllegalArgumentException.class);
  }
}
