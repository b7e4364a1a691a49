package dev.berth.core.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PlacementPolicyNameTest {

  @Test
  void eachNameIsTheNameOfThePolicyItMakes() {
    assertThat(PlacementPolicyName.values()).allSatisfy(p -> assertThat(p.create().name()).isEqualTo(p.label()));
    assertThat(Arrays.stream(PlacementPolicyName.values()).map(PlacementPolicyName::label))
        .containsExactlyInAnyOrderElementsOf(PlacementPolicies.names());
  }

  @Test
  void aNameIsReadAsWrittenAndAnUnknownOneIsRefusedWithTheValidNames() {
    assertThat(PlacementPolicyName.of(" pci-reverse ")).isEqualTo(PlacementPolicyName.PCI_REVERSE);
    assertThat(PlacementPolicyName.BEST_FIT).hasToString("best-fit");
    assertThatThrownBy(() -> PlacementPolicyName.of("nearest")).hasMessageStartingWith(
        "unknown GPU placement policy 'nearest'; use one of auto, best-fit,");
  }
}
