package dev.berth.core.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PlacementPoliciesTest {

  static java.util.Set<String> names() {
    return PlacementPolicies.names();
  }

  @Test
  void everyBuiltInPolicyIsRegistered() {
    assertThat(PlacementPolicies.names()).containsExactly(
        "auto", "best-fit", "first-fit", "leastload", "lru", "most-free", "pci", "pci-reverse", "random",
        "remain-mem", "remain-mem-reverse", "round-robin", "spread", "total-mem", "total-mem-reverse", "twobin", "weighted");
  }

  @ParameterizedTest
  @MethodSource("names")
  void aPolicyFoundByNameCarriesThatName(String name) {
    assertThat(PlacementPolicies.byName(name).name()).isEqualTo(name);
  }

  @Test
  void reverseNamesGiveReversedPolicies() {
    assertThat(PlacementPolicies.byName("pci-reverse")).isInstanceOf(ReversedPlacement.class);
  }

  @Test
  void autoComesWithFlgosDefaults() {
    AutoPlacement auto = (AutoPlacement) PlacementPolicies.byName("auto");
    assertThat(auto.putInterval()).isEqualTo(AutoPlacement.DEFAULT_INTERVAL);
  }

  @Test
  void configuredIntervalsReachAutoAndAreIgnoredByTheOthers() {
    AutoPlacement auto = (AutoPlacement) PlacementPolicies.byName("auto", Duration.ofSeconds(2), Duration.ZERO);
    assertThat(auto.putInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(auto.availableInterval()).isZero();
    assertThat(PlacementPolicies.byName("lru", Duration.ofSeconds(2), Duration.ZERO)).isInstanceOf(LeastRecentlyUsedPlacement.class);
    assertThatThrownBy(() -> PlacementPolicies.byName("auto", Duration.ofSeconds(-1), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anUnknownNameIsRejectedNamingTheValidOnesSorted() {
    assertThatThrownBy(() -> PlacementPolicies.byName("fastest"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown GPU placement policy 'fastest'; use one of auto, best-fit, first-fit, leastload, lru,"
            + " most-free, pci, pci-reverse, random, remain-mem, remain-mem-reverse, round-robin, spread, total-mem,"
            + " total-mem-reverse, twobin, weighted");
    assertThatThrownBy(() -> PlacementPolicies.byName(null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void allHoldsOneOfEachInNameOrder() {
    assertThat(PlacementPolicies.all()).extracting(PlacementPolicy::name).containsExactlyElementsOf(PlacementPolicies.names());
  }
}
