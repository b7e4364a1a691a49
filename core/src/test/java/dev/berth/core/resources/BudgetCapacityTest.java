package dev.berth.core.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.SimulatedDevices;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import org.junit.jupiter.api.Test;

class BudgetCapacityTest {

  private static final long GIB = 1L << 30;

  @Test
  void whatBerthMayHandOutOnADeviceIsItsTotalMinusWhatTheLimitsKeepFree() {
    SchedulerConfig byShare = SchedulerConfig.builder().set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 0.75)
        .set(SchedulerKeys.REMAIN_CUDA_MEMORY, GIB)
        .build();
    SchedulerConfig byRemain = SchedulerConfig.builder().set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.REMAIN_CUDA_MEMORY, 2 * GIB)
        .build();

    assertThat(DeviceBudget.capacity(byShare, SimulatedDevices.device(0, 24 * GIB))).isEqualTo(18 * GIB);
    assertThat(DeviceBudget.capacity(byRemain, SimulatedDevices.device(0, 24 * GIB))).isEqualTo(22 * GIB);
    assertThat(DeviceBudget.capacity(byRemain, SimulatedDevices.device(0, GIB))).isZero();
  }

  @Test
  void whatBerthMayHandOutOnTheHostIsItsMemoryMinusWhatTheLimitsKeepFree() {
    SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 0.5)
        .set(SchedulerKeys.REMAIN_MEMORY, GIB).build();

    assertThat(HostBudget.capacity(config, 64 * GIB)).isEqualTo(32 * GIB);
    assertThat(HostBudget.capacity(config, GIB)).isZero();
  }
}
