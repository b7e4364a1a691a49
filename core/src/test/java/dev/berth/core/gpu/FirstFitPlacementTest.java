package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FirstFitPlacementTest {

  private final FirstFitPlacement policy = new FirstFitPlacement();

  @Test
  void firstFitOrdersByIndexWhateverTheFreeMemory() {
    List<DeviceState> order = policy.order(List.of(gpu(2, 70), gpu(0, 5), gpu(1, 40)), request());
    assertThat(indices(order)).as("index order 0, 1, 2 although device 2 has the most free").containsExactly(0, 1, 2);
  }

  @Test
  void noCandidatesGiveAnEmptyAnswer() {
    assertThat(policy.order(List.of(), request())).isEmpty();
  }

  @Test
  void duplicateIndicesAreRejected() {
    assertThatThrownBy(() -> policy.order(List.of(gpu(1, 5), gpu(1, 6)), request()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index 1");
  }

  @Test
  void theInputListIsNotModified() {
    List<DeviceState> input = new java.util.ArrayList<>(List.of(gpu(1, 5), gpu(0, 6)));
    policy.order(input, request());
    assertThat(indices(input)).containsExactly(1, 0);
  }
}
