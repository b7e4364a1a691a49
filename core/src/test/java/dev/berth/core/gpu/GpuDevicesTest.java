package dev.berth.core.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class GpuDevicesTest {

  private static final GpuDevice D0 = SimulatedDevices.device(0, 10);
  private static final GpuDevice D1 = SimulatedDevices.device(1, 10);
  private static final GpuDevice D3 = SimulatedDevices.device(3, 10);

  @Test
  void sortedByIndexOrdersAndRejectsDuplicates() {
    assertThat(GpuDevices.sortedByIndex(List.of(D3, D0, D1))).containsExactly(D0, D1, D3);
    assertThatThrownBy(() -> GpuDevices.sortedByIndex(List.of(D1, D1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index 1");
  }

  @Test
  void restrictKeepsTheSelectedDevicesWithTheirOwnIndices() {
    assertThat(GpuDevices.restrict(List.of(D3, D1, D0), new TreeSet<>(List.of(3, 1))))
        .as("cuda:1 and cuda:3 keep their ids").containsExactly(D1, D3);
  }

  @Test
  void missingNamesTheWantedIndicesNoDeviceHas() {
    assertThat(GpuDevices.missing(List.of(D0, D1), new TreeSet<>(List.of(1, 4, 2)))).containsExactly(2, 4);
    assertThat(GpuDevices.missing(List.of(D0, D1), new TreeSet<>(List.of(0)))).isEmpty();
  }

  @Test
  void describeIndicesWritesThemInOrder() {
    assertThat(GpuDevices.describeIndices(List.of(3, 0, 2))).isEqualTo("0, 2, 3");
    assertThat(GpuDevices.describeIndices(List.of())).isEqualTo("none");
  }
}
