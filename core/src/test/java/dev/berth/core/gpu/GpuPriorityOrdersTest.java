package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** fedflow's gpu-priority orders: pci, total-mem, remain-mem, and their reverse. */
class GpuPriorityOrdersTest {

  // index: total / free GiB -> 0: 24/20, 1: 80/10, 2: 48/30, 3: 80/30
  private final List<DeviceState> mixed = List.of(gpu(2, 48, 30), gpu(0, 24, 20), gpu(3, 80, 30), gpu(1, 80, 10));

  @Test
  void pciIsIndexOrderAndItsReverseTheHighestIndexFirst() {
    assertThat(indices(new PciPlacement().order(mixed, request()))).containsExactly(0, 1, 2, 3);
    assertThat(indices(new ReversedPlacement(new PciPlacement()).order(mixed, request()))).containsExactly(3, 2, 1, 0);
  }

  @Test
  void totalMemPutsTheLargestCardsFirst() {
    assertThat(indices(new TotalMemoryPlacement().order(mixed, request())))
        .as("80 GiB cards 1 and 3 (by index), then 48, then 24").containsExactly(1, 3, 2, 0);
  }

  @Test
  void totalMemReversePutsTheSmallestCardsFirstWithTiesReversedToo() {
    assertThat(indices(new ReversedPlacement(new TotalMemoryPlacement()).order(mixed, request())))
        .as("24, 48, then the 80 GiB cards 3 and 1").containsExactly(0, 2, 3, 1);
  }

  @Test
  void remainMemPutsTheMostFreeFirstAndItsReverseTheLeastFree() {
    assertThat(indices(new RemainingMemoryPlacement().order(mixed, request())))
        .as("30 (2 before 3), 20, 10 GiB free").containsExactly(2, 3, 0, 1);
    assertThat(indices(new ReversedPlacement(new RemainingMemoryPlacement()).order(mixed, request()))).containsExactly(1, 0, 3, 2);
  }

  @Test
  void aReversedPolicyIsNamedAfterItsInnerPolicy() {
    ReversedPlacement r = new ReversedPlacement(new TotalMemoryPlacement());
    assertThat(r.name()).isEqualTo("total-mem-reverse");
    assertThat(r.inner()).isInstanceOf(TotalMemoryPlacement.class);
  }

  @Test
  void reversingKeepsDevicesTheInnerPolicyDropped() {
    DeviceState busy = gpu(0, 70).withLastPlacedAt(PolicyFixtures.NOW);
    assertThat(indices(new ReversedPlacement(new AutoPlacement()).order(List.of(busy, gpu(1, 10), gpu(2, 20)), request())))
        .as("auto drops device 0 (placed just now); the rest reversed: 10 then 20 GiB free").containsExactly(1, 2);
  }
}
