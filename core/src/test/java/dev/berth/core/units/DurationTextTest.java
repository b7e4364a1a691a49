package dev.berth.core.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationTextTest {

  @ParameterizedTest(name = "\"{0}\" = {1} ms")
  @CsvSource(delimiter = '|', textBlock = """
      500ms    | 500
      2s       | 2000
      10m      | 600000
      1h       | 3600000
      1d       | 86400000
      1h30m    | 5400000
      1m30s    | 90000
      1h1m1s1ms | 3661001
      1.5s     | 1500
      0.5h     | 1800000
      60       | 60000
      0        | 0
      1.5      | 1500
      0.0004   | 0
      0.0005   | 1
      0ms      | 0
      ' 2s '   | 2000
      '1h 30m' | 5400000
      10ms     | 10
      2m10ms   | 120010
      """)
  void parsesUnitsCombinationsAndBareSeconds(String text, long expectedMillis) {
    assertThat(DurationText.parse(text))
        .as("'%s' should be %d ms", text, expectedMillis)
        .isEqualTo(Duration.ofMillis(expectedMillis));
  }

  @Test
  void aBareNumberIsSecondsAsInFedflowsInterval() {
    assertThat(DurationText.parse("60")).isEqualTo(Duration.ofSeconds(60));
  }

  @ParameterizedTest(name = "\"{0}\" is rejected")
  @ValueSource(strings = {
      "10 minutes", "", "   ", "-1s", "1x", "s", "ms", "1.s", ".5s", "1h30", "1sec", "1S", "1H",
      "1e3", "PT1S", "1,5s", "1s-"
  })
  void rejectsTextThatIsNotADurationNamingTheValue(String text) {
    assertThatThrownBy(() -> DurationText.parse(text))
        .as("'%s' must be rejected", text)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'")
        .hasMessageContaining("1h30m");
  }

  @ParameterizedTest
  @NullSource
  void rejectsAMissingDuration(String text) {
    assertThatThrownBy(() -> DurationText.parse(text)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0} ms -> \"{1}\"")
  @CsvSource(delimiter = '|', textBlock = """
      0        | 0ms
      250      | 250ms
      999      | 999ms
      1000     | 1.0s
      1500     | 1.5s
      59900    | 59.9s
      60000    | 1m00s
      192000   | 3m12s
      3599000  | 59m59s
      3600000  | 1h00m
      7500000  | 2h05m
      90000000 | 25h00m
      """)
  void formatsCompactly(long millis, String expected) {
    assertThat(DurationText.format(Duration.ofMillis(millis))).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"250ms", "1.5s", "3m12s", "59m59s"})
  void formattedDurationsBelowAnHourParseBack(String text) {
    Duration d = DurationText.parse(text);
    assertThat(DurationText.parse(DurationText.format(d))).isEqualTo(d);
  }
}
