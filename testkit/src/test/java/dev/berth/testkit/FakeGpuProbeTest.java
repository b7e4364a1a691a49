package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuProcess;
import java.util.List;
import org.junit.jupiter.api.Test;

class FakeGpuProbeTest {

  private static final long GIB = 1L << 30;

  @Test
  void aNewProbeHasNoDevices() {
    FakeGpuProbe probe = new FakeGpuProbe();
    assertThat(probe.read()).isEmpty();
    assertThat(probe.source()).isEqualTo("nvml");
    assertThat(probe.lastError()).isEmpty();
  }

  @Test
  void scriptedDevicesAreReadInIndexOrderWithFreeEqualTotalMinusUsed() {
    FakeGpuProbe probe = new FakeGpuProbe().device(1, 24).device(0, 80).used(0, 30 * GIB).process(0, 4242, 30 * GIB);

    List<GpuDevice> devices = probe.read();

    assertThat(devices).extracting(GpuDevice::index).containsExactly(0, 1);
    GpuDevice first = devices.get(0);
    assertThat(first.uuid()).isEqualTo("GPU-FAKE-0");
    assertThat(first.name()).isEqualTo("Fake GPU");
    assertThat(first.totalMemoryBytes()).isEqualTo(80 * GIB);
    assertThat(first.freeMemoryBytes()).as("80 - 30 GiB").isEqualTo(50 * GIB);
    assertThat(first.processes()).containsExactly(new GpuProcess(4242, 30 * GIB));
    assertThat(first.utilizationKnown()).isFalse();
    assertThat(devices.get(1).freeMemoryBytes()).isEqualTo(24 * GIB);
    assertThat(probe.reads()).isEqualTo(1);
  }

  @Test
  void nameUtilizationSimulatedAndSourceAreScripted() {
    GpuDevice d = new FakeGpuProbe().device(0, 0.5).name(0, "NVIDIA L4").utilization(0, 0.25).simulated(0)
        .source("nvidia-smi").read().get(0);
    assertThat(d.name()).isEqualTo("NVIDIA L4");
    assertThat(d.utilization()).isEqualTo(0.25);
    assertThat(d.simulated()).isTrue();
    assertThat(d.totalMemoryBytes()).isEqualTo(GIB / 2);
  }

  @Test
  void aFailingProbeServesTheLastGoodReadingAndSaysWhy() {
    FakeGpuProbe probe = new FakeGpuProbe().device(0, 16);
    List<GpuDevice> good = probe.read();

    probe.used(0, 8 * GIB).failing("GPU is lost");

    assertThat(probe.read()).isEqualTo(good);
    assertThat(probe.lastError()).contains("GPU is lost");
    probe.failing(null);
    assertThat(probe.read().get(0).freeMemoryBytes()).as("recovered: 16 - 8 GiB").isEqualTo(8 * GIB);
  }

  @Test
  void removedDevicesDisappearAndUnknownIndicesAreRejected() {
    FakeGpuProbe probe = new FakeGpuProbe().device(0, 16).device(1, 16).remove(0);
    assertThat(probe.read()).extracting(GpuDevice::index).containsExactly(1);
    assertThatThrownBy(() -> probe.used(5, 1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index 5");
  }

  @Test
  void closeIsRecorded() {
    FakeGpuProbe probe = new FakeGpuProbe();
    probe.close();
    assertThat(probe.closed()).isTrue();
  }
}
