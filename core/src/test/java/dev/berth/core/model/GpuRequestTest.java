package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class GpuRequestTest {

  private static final long GIB = 1L << 30;

  @Test
  void aTaskWithoutAGpuIsDescribedAsNothing() {
    assertThat(GpuRequest.NONE.describe()).isEmpty();
  }

  @Test
  void aShareIsDescribedByItsMemoryAndTheDevicesItMayUse() {
    assertThat(GpuRequest.share(8 * GIB).describe()).isEqualTo("gpu-mem 8 GiB");
    assertThat(new GpuRequest(8 * GIB, 0, OptionalInt.empty(), List.of(0, 1), Optional.empty(), true).describe())
        .isEqualTo("gpu-mem 8 GiB of [0, 1]");
  }

  @Test
  void wholeDevicesAreCountedAndAPinNamesItsDevice() {
    assertThat(GpuRequest.whole(2).describe()).isEqualTo("2 whole gpu");
    assertThat(GpuRequest.whole(1).pinnedTo(1).describe()).isEqualTo("1 whole gpu on cuda:1");
  }
}
