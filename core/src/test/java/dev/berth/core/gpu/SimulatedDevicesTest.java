package dev.berth.core.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class SimulatedDevicesTest {

  private static final long GIB = 1L << 30;

  @Test
  void aCountAndASizeMakeThatManyEqualDevices() {
    List<GpuDevice> devices = SimulatedDevices.parse("sim:2x80GiB");

    assertThat(devices).hasSize(2);
    GpuDevice first = devices.get(0);
    assertThat(first.index()).isEqualTo(0);
    assertThat(first.uuid()).isEqualTo("SIM-0");
    assertThat(first.name()).isEqualTo("Simulated GPU 80 GiB");
    assertThat(first.totalMemoryBytes()).isEqualTo(80 * GIB);
    assertThat(first.freeMemoryBytes()).as("all memory free").isEqualTo(80 * GIB);
    assertThat(first.usedMemoryBytes()).isZero();
    assertThat(first.simulated()).isTrue();
    assertThat(first.utilizationKnown()).isFalse();
    assertThat(first.processes()).isEmpty();
    assertThat(devices.get(1).id()).isEqualTo("cuda:1");
  }

  @Test
  void aListOfSizesMakesOneDeviceEachInOrder() {
    List<GpuDevice> devices = SimulatedDevices.parse("sim:24GiB,24GiB,80GiB");

    assertThat(devices).extracting(GpuDevice::totalMemoryBytes).containsExactly(24 * GIB, 24 * GIB, 80 * GIB);
    assertThat(devices).extracting(GpuDevice::uuid).containsExactly("SIM-0", "SIM-1", "SIM-2");
  }

  @Test
  void itemsMayBeMixedAndSpacedAndUseAnyByteSizeUnit() {
    List<GpuDevice> devices = SimulatedDevices.parse(" sim: 2 x 16GB , 1.5GiB ");

    assertThat(devices).extracting(GpuDevice::totalMemoryBytes)
        .as("16 GB = 16e9 bytes twice, then 1.5 GiB").containsExactly(16_000_000_000L, 16_000_000_000L, 3 * GIB / 2);
    assertThat(devices.get(2).name()).isEqualTo("Simulated GPU 1.5 GiB");
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "2x80GiB", "sim:", "sim:80GiB,", "sim:,80GiB", "sim:0x80GiB", "sim:2x", "sim:80 parsecs",
      "sim:0", "sim:257x1GiB", "sim:99999999999x1GiB", "sim:-1GiB"})
  void malformedValuesAreRejectedWithTheAcceptedForms(String text) {
    assertThatThrownBy(() -> SimulatedDevices.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sim:2x80GiB")
        .hasMessageContaining("sim:24GiB,24GiB,80GiB");
  }

  @Test
  void atMost256DevicesMayBeSimulated() {
    assertThat(SimulatedDevices.parse("sim:256x1GiB")).hasSize(256);
    assertThatThrownBy(() -> SimulatedDevices.parse("sim:200x1GiB,100x1GiB"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than 256");
  }

  @Test
  void aBadSizeExplainsTheSizeRuleToo() {
    assertThatThrownBy(() -> SimulatedDevices.parse("sim:80GiG"))
        .hasMessageContaining("unknown unit 'GiG'");
  }

  @Test
  void aBareNumberTooSmallToBeMeantIsRefusedWithTheUnitLikelyMeant() {
    assertThatThrownBy(() -> SimulatedDevices.parse("sim:2x24"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'sim:2x24': '24' would be a GPU of 24 bytes (a bare number counts bytes); did you mean 24GiB?");
    assertThat(SimulatedDevices.parse("sim:1x25769803776").get(0).totalMemoryBytes()).isEqualTo(24L << 30);
  }
}
