package dev.berth.core.gpu;

import static dev.berth.core.gpu.PolicyFixtures.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PlacementRequestTest {

  @Test
  void equalRequestsGiveEqualRandomStreams() {
    PlacementRequest r = new PlacementRequest(1, NOW, 7, 3);
    assertThat(r.random().nextLong()).isEqualTo(new PlacementRequest(1, NOW, 7, 3).random().nextLong());
  }

  @Test
  void anotherSequenceOrSeedGivesAnotherStream() {
    long base = new PlacementRequest(1, NOW, 7, 3).random().nextLong();
    assertThat(new PlacementRequest(1, NOW, 7, 4).random().nextLong()).isNotEqualTo(base);
    assertThat(new PlacementRequest(1, NOW, 8, 3).random().nextLong()).isNotEqualTo(base);
  }

  @Test
  void mixSpreadsConsecutiveSequences() {
    assertThat(PlacementRequest.mix(1) ^ PlacementRequest.mix(2))
        .as("consecutive inputs differ in many bits").matches(x -> Long.bitCount(x) > 16);
  }

  @Test
  void impossibleRequestsAreRejected() {
    assertThatThrownBy(() -> new PlacementRequest(-1, NOW, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PlacementRequest(0, NOW, 0, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PlacementRequest(0, null, 0, 0)).isInstanceOf(NullPointerException.class);
  }
}
