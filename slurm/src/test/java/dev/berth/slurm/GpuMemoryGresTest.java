package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GpuMemoryGresTest {

  private static final long GIB = 1L << 30;

  @Test
  void withoutAMappingAShareGetsAWholeGpu() {
    assertThat(GpuMemoryGres.parse("none")).isEqualTo(GpuMemoryGres.NONE);
    assertThat(GpuMemoryGres.NONE.gresFor(8 * GIB)).isEqualTo("gpu:1");
  }

  @Test
  void shardsAreOnePerTaskOrCountedInTheirSize() {
    assertThat(GpuMemoryGres.parse("shard").gresFor(8 * GIB)).isEqualTo("shard:1");
    assertThat(GpuMemoryGres.parse("shard:10GiB").gresFor(25 * GIB)).isEqualTo("shard:3");
  }

  @Test
  void aCountGresIsRoundedUpToWholeUnits() {
    GpuMemoryGres gpumem = GpuMemoryGres.parse("gpumem:1MiB");

    assertThat(gpumem).isEqualTo(GpuMemoryGres.count("gpumem", 1L << 20));
    assertThat(gpumem.gresFor(8 * GIB)).isEqualTo("gpumem:8192");
    assertThat(gpumem.gresFor(1)).isEqualTo("gpumem:1");
    assertThat(gpumem).hasToString("gpumem:1 MiB");
  }

  @Test
  void otherTextIsRejectedNamingTheForms() {
    assertThatThrownBy(() -> GpuMemoryGres.parse("gpu memory")).hasMessageContaining("use none, shard, or NAME:SIZE");
    assertThatThrownBy(() -> GpuMemoryGres.parse("gpumem:lots")).hasMessageContaining("not a memory size");
    assertThatThrownBy(() -> GpuMemoryGres.count("gpumem", 0)).hasMessageContaining("unit > 0");
    assertThatThrownBy(() -> GpuMemoryGres.NONE.gresFor(0)).hasMessageContaining("must be > 0");
  }
}
