package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResourcesTest {

  @ParameterizedTest(name = "{0} cpus = {1} millicpus")
  @CsvSource({"0, 0", "0.5, 500", "1, 1000", "1.5, 1500", "0.001, 1", "0.0004, 0", "0.0005, 1", "64, 64000"})
  void convertsCoresToThousandthsRoundingToTheNearest(double cpus, long milli) {
    assertThat(Resources.milliCpus(cpus)).isEqualTo(milli);
  }

  @ParameterizedTest
  @ValueSource(doubles = {-0.001, -1, Double.NaN, Double.POSITIVE_INFINITY, 1_000_001})
  void rejectsCoreCountsThatAreNotANonNegativeNumber(double cpus) {
    assertThatThrownBy(() -> Resources.milliCpus(cpus))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cpus");
  }

  @Test
  void fractionalRequestsAddUpExactly() {
    long sum = 0;
    for (int i = 0; i < 10; i++) {
      sum += Resources.milliCpus(0.1);
    }
    assertThat(sum).as("ten requests of 0.1 cores are exactly one core").isEqualTo(1000);
    assertThat(new Resources(0, 1500).cpus()).isEqualTo(1.5);
  }

  @Test
  void rejectsNegativeAmountsNamingTheField() {
    assertThatThrownBy(() -> new Resources(-1, 0)).hasMessageContaining("memoryBytes").hasMessageContaining("-1");
    assertThatThrownBy(() -> new Resources(0, -5)).hasMessageContaining("milliCpus").hasMessageContaining("-5");
  }
}
