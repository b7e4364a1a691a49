package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.gpu;
import static dev.berth.core.gpu.PolicyFixtures.indices;
import static dev.berth.core.gpu.PolicyFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundRobinPlacementTest {

  private final RoundRobinPlacement policy = new RoundRobinPlacement();
  private final List<DeviceState> three = List.of(gpu(2, 10), gpu(0, 10), gpu(1, 10));

  @Test
  void theFirstPlacementStartsAtTheLowestIndexNotTheSecondDeviceAsInFlgo() {
    assertThat(indices(policy.order(three, request(0)))).as("sequence 0 starts at position 0").containsExactly(0, 1, 2);
  }

  @Test
  void eachPlacementStartsOneFurther() {
    assertThat(indices(policy.order(three, request(1)))).as("sequence 1 % 3 = 1").containsExactly(1, 2, 0);
    assertThat(indices(policy.order(three, request(2)))).as("sequence 2 % 3 = 2").containsExactly(2, 0, 1);
    assertThat(indices(policy.order(three, request(3)))).as("sequence 3 % 3 = 0 again").containsExactly(0, 1, 2);
  }

  @Test
  void positionsCountAmongTheCandidates() {
    List<DeviceState> gapped = List.of(gpu(0, 10), gpu(5, 10));
    assertThat(indices(policy.order(gapped, request(3)))).as("3 % 2 candidates = position 1: device 5").containsExactly(5, 0);
  }

  @Test
  void hugeSequencesStillRotate() {
    assertThat(indices(policy.order(three, request(Long.MAX_VALUE))))
        .as("Long.MAX_VALUE % 3 = 1").containsExactly(1, 2, 0);
  }

  @Test
  void noCandidatesGiveAnEmptyAnswer() {
    assertThat(policy.order(List.of(), request(4))).isEmpty();
  }
}
