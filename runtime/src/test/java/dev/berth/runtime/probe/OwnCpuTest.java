package dev.berth.runtime.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OwnCpuTest {

  @Test
  void berthsOwnCpuTimeIsNotCountedAsLoadFromOtherProcesses() {
    // 2 CPUs for 1 s = 2000 ms of ticks, 90% busy; Berth's JVM used 1000 ms of them: others used 40%.
    assertThat(OshiHostProbe.withoutOwn(0.9, 1000, 2000)).isEqualTo(0.4);
  }

  @Test
  void theResultNeverGoesBelowZeroAndUnknownStaysUnknown() {
    assertThat(OshiHostProbe.withoutOwn(0.1, 1000, 2000)).isZero();
    assertThat(OshiHostProbe.withoutOwn(-1, 1000, 2000)).isEqualTo(-1);
    assertThat(OshiHostProbe.withoutOwn(0.5, 10, 0)).isEqualTo(0.5);
  }
}
