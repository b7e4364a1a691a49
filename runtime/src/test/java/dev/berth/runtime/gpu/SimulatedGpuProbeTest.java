package dev.berth.runtime.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.SimulatedDevices;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatedGpuProbeTest {

  private static final long GIB = 1L << 30;

  private final SimulatedGpuProbe probe = new SimulatedGpuProbe(SimulatedDevices.parse("sim:24GiB,80GiB"));

  @Test
  void allMemoryIsFreeAtFirst() {
    List<GpuDevice> devices = probe.read();
    assertThat(devices).extracting(GpuDevice::freeMemoryBytes).containsExactly(24 * GIB, 80 * GIB);
    assertThat(devices).allMatch(GpuDevice::simulated);
    assertThat(probe.source()).isEqualTo("simulated");
    assertThat(probe.lastError()).isEmpty();
  }

  @Test
  void usedMemoryIsTakenFromTheFreeMemory() {
    probe.setUsed(1, 30 * GIB);
    GpuDevice d = probe.read().get(1);
    assertThat(d.usedMemoryBytes()).isEqualTo(30 * GIB);
    assertThat(d.freeMemoryBytes()).as("80 - 30 GiB").isEqualTo(50 * GIB);
    assertThat(probe.read().get(0).freeMemoryBytes()).as("device 0 untouched").isEqualTo(24 * GIB);
  }

  @Test
  void moreThanTheTotalReadsAsAFullDevice() {
    probe.setUsed(0, 100 * GIB);
    GpuDevice d = probe.read().get(0);
    assertThat(d.freeMemoryBytes()).isZero();
    assertThat(d.usedMemoryBytes()).isEqualTo(24 * GIB);
  }

  @Test
  void anUnknownIndexOrNegativeBytesAreRejected() {
    assertThatThrownBy(() -> probe.setUsed(2, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no simulated GPU with index 2")
        .hasMessageContaining("0, 1");
    assertThatThrownBy(() -> probe.setUsed(0, -1)).isInstanceOf(IllegalArgumentException.class);
  }
}
