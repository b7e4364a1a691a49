package dev.berth.core.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.gpu.DeviceSelection.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class DeviceSelectionTest {

  @Test
  void autoIsTheDefaultAndMeansEveryGpuFound() {
    DeviceSelection s = DeviceSelection.parse(DeviceSelection.DEFAULT);
    assertThat(s.kind()).isEqualTo(Kind.AUTO);
    assertThat(s).isEqualTo(DeviceSelection.auto());
    assertThat(s.toString()).isEqualTo("auto");
  }

  @Test
  void noneMeansNoGpus() {
    assertThat(DeviceSelection.parse("none")).isEqualTo(DeviceSelection.none());
  }

  @Test
  void keywordsIgnoreCaseAndSurroundingSpace() {
    assertThat(DeviceSelection.parse(" AUTO ").kind()).isEqualTo(Kind.AUTO);
    assertThat(DeviceSelection.parse("None").kind()).isEqualTo(Kind.NONE);
  }

  @Test
  void aCommaListOfIndicesRestrictsToThoseIndices() {
    DeviceSelection s = DeviceSelection.parse("2, 0");
    assertThat(s.kind()).isEqualTo(Kind.INDICES);
    assertThat(s.indices()).containsExactly(0, 2);
    assertThat(s.toString()).isEqualTo("0,2");
    assertThat(DeviceSelection.parse("7").indices()).containsExactly(7);
  }

  @Test
  void simIsASimulatedSelection() {
    DeviceSelection s = DeviceSelection.parse("sim:2x80GiB");
    assertThat(s.kind()).isEqualTo(Kind.SIMULATED);
    assertThat(s.simulated()).hasSize(2).allMatch(GpuDevice::simulated);
    assertThat(s.indices()).isEmpty();
    assertThat(s.toString()).isEqualTo("sim:80GiB,80GiB");
    assertThat(DeviceSelection.parse("SIM:24GiB").simulated()).hasSize(1);
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {" ", "all", "cuda:0", "0;1", "gpu0", "-1", "0,-1", "1.5"})
  void anInvalidValueIsRejectedWithTheRule(String text) {
    assertThatThrownBy(() -> DeviceSelection.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("auto, none, device indices such as 0,2");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0,,1", "0,", ",1", "0 1"})
  void anIndexListWithAHoleExplainsTheIndexRule(String text) {
    assertThatThrownBy(() -> DeviceSelection.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole numbers separated by commas");
  }

  @Test
  void aRepeatedIndexIsAnError() {
    assertThatThrownBy(() -> DeviceSelection.parse("1,0,1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lists device index 1 twice");
  }

  @Test
  void anAbsurdIndexIsAnError() {
    assertThatThrownBy(() -> DeviceSelection.parse("1024")).hasMessageContaining("at most 1023");
    assertThatThrownBy(() -> DeviceSelection.parse("99999999999999")).hasMessageContaining("too large");
  }

  @Test
  void aBadSimulatedListExplainsTheSimulatedForms() {
    assertThatThrownBy(() -> DeviceSelection.parse("sim:lots"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sim:2x80GiB");
  }

  @Test
  void partsMustMatchTheKind() {
    assertThatThrownBy(() -> DeviceSelection.indices(List.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DeviceSelection.simulated(List.of())).isInstanceOf(IllegalArgumentException.class);
  }
}
