package dev.berth.core.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GpuDeviceTest {

  private static GpuDevice device(long total, long used, long free, double utilization) {
    return new GpuDevice(3, "GPU-x", "NVIDIA A100-SXM4-80GB", total, used, free, utilization, false, List.of());
  }

  @Test
  void theIdIsCudaAndTheIndex() {
    assertThat(device(100, 0, 100, 0).id()).isEqualTo("cuda:3");
    assertThat(GpuDevice.id(0)).isEqualTo("cuda:0");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"0.5, 0.5", "0, 0", "1, 1", "1.7, 1", "-0.2, -1", "-1, -1", "NaN, -1"})
  void utilizationIsClampedOrMarkedUnknownLikeTheHostSnapshot(double given, double stored) {
    GpuDevice d = device(100, 0, 100, given);
    assertThat(d.utilization()).isEqualTo(stored);
    assertThat(d.utilizationKnown()).isEqualTo(stored >= 0);
  }

  @Test
  void freeAndUsedMemoryAreNeverMoreThanTotal() {
    GpuDevice d = device(100, 150, 130, 0);
    assertThat(d.freeMemoryBytes()).as("free 130 clamped to total 100").isEqualTo(100);
    assertThat(d.usedMemoryBytes()).as("used 150 clamped to total 100").isEqualTo(100);
  }

  @Test
  void negativeMemoryOrIndexIsRejected() {
    assertThatThrownBy(() -> device(-1, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("total -1");
    assertThatThrownBy(() -> device(10, -1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> device(10, 0, -1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GpuDevice(-1, "u", "n", 1, 0, 1, 0, false, List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index");
    assertThatThrownBy(() -> new GpuDevice(0, null, "n", 1, 0, 1, 0, false, List.of()))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void processesAreACopySortedByPid() {
    List<GpuProcess> given = new ArrayList<>(List.of(new GpuProcess(30, 5), new GpuProcess(10, 7)));
    GpuDevice d = new GpuDevice(0, "u", "n", 100, 12, 88, 0, false, given);
    given.clear();

    assertThat(d.processes()).containsExactly(new GpuProcess(10, 7), new GpuProcess(30, 5));
    assertThatThrownBy(() -> d.processes().add(new GpuProcess(1, 1))).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void memoryUsedFractionIsUsedOverTotalAndZeroWithoutMemory() {
    assertThat(device(200, 50, 150, 0).memoryUsedFraction()).as("50 of 200").isEqualTo(0.25);
    assertThat(device(0, 0, 0, 0).memoryUsedFraction()).isZero();
  }

  @Test
  void withMemoryAndWithProcessesKeepEverythingElse() {
    GpuDevice d = device(100, 0, 100, 0.5).withMemory(40, 60).withProcesses(List.of(new GpuProcess(7, 40)));
    assertThat(d.usedMemoryBytes()).isEqualTo(40);
    assertThat(d.freeMemoryBytes()).isEqualTo(60);
    assertThat(d.processes()).containsExactly(new GpuProcess(7, 40));
    assertThat(d.utilization()).isEqualTo(0.5);
    assertThat(d.index()).isEqualTo(3);
  }

  @Test
  void aProcessWithNegativeMemoryHasUnknownMemory() {
    assertThat(new GpuProcess(5, -7).usedMemoryBytes()).isEqualTo(GpuProcess.UNKNOWN);
    assertThat(new GpuProcess(5, -1).usedMemoryKnown()).isFalse();
    assertThat(new GpuProcess(5, 0).usedMemoryKnown()).isTrue();
    assertThatThrownBy(() -> new GpuProcess(-2, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
