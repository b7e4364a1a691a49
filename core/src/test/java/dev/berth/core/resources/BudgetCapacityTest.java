package dev.berth.core.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.SimulatedDevices;
import dev.berth.core.model.SchedulerConfig;
import org.junit.jupiter.api.Test;

class BudgetCapacityTest {

  private static final long GIB = 1L << 30;

  @Test
  void whatBerthMayHandOutOnADeviceIsItsTotalMinusWhatTheLimitsKeepFree() {
    SchedulerConfig byShare = SchedulerConfig.builder().cudaMemoryUtilizationLimit(0.75).remainCudaMemoryBytes(GIB)
        .build();
    SchedulerConfig byRemain = SchedulerConfig.builder().cudaMemoryUtilizationLimit(1).remainCudaMemoryBytes(2 * GIB)
        .build();

    assertThat(DeviceBudget.capacity(byShare, SimulatedDevices.device(0, 24 * GIB))).isEqualTo(18 * GIB);
    assertThat(DeviceBudget.capacity(byRemain, SimulatedDevices.device(0, 24 * GIB))).isEqualTo(22 * GIB);
    assertThat(DeviceBudget.capacity(byRemain, SimulatedDevices.device(0, GIB))).isZero();
  }

  @Test
  void whatBerthMayHandOutOnTheHostIsItsMemoryMinusWhatTheLimitsKeepFree() {
    SchedulerConfig config = SchedulerConfig.builder().memoryUtilizationLimit(0.5).remainMemoryBytes(GIB).build();

    assertThat(HostBudget.capacity(config, 64 * GIB)).isEqualTo(32 * GIB);
    assertThat(HostBudget.capacity(config, GIB)).isZero();
  }
}
