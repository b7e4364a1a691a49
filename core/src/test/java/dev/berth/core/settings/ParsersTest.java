package dev.berth.core.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParsersTest {

  @Test
  void textAsWrittenAndTheTypedJavaValueParseAlike() {
    assertThat(Parsers.MEMORY.parse("2GiB")).isEqualTo(2L << 30);
    assertThat(Parsers.MEMORY.parse("1024")).isEqualTo(Parsers.MEMORY.parse(1024L)).isEqualTo(1024L);
    assertThat(Parsers.DURATION.parse("90")).isEqualTo(Parsers.DURATION.parse(Duration.ofSeconds(90)));
    assertThat(Parsers.CORES.parse("0.5")).isEqualTo(Parsers.CORES.parse(0.5));
    assertThat(Parsers.wholeNumber(0).parse("3")).isEqualTo(Parsers.wholeNumber(0).parse(3));
    assertThat(Parsers.BOOLEAN.parse("true")).isEqualTo(Parsers.BOOLEAN.parse(true));
  }

  @Test
  void yamlsOtherWaysOfWritingBooleansMeanWhatTheySay() {
    assertThat(List.of("yes", "On", "TRUE")).allSatisfy(t -> assertThat(Parsers.BOOLEAN.parse(t)).isTrue());
    assertThat(List.of("no", "off", "False")).allSatisfy(t -> assertThat(Parsers.BOOLEAN.parse(t)).isFalse());
  }

  @Test
  void aRejectedValueIsQuotedAsWrittenAndATypedOneAsJavaPrintsIt() {
    assertThatThrownBy(() -> Parsers.wholeNumber(0).parse("-2")).hasMessage("must be a whole number >= 0 but was '-2'");
    assertThatThrownBy(() -> Parsers.wholeNumber(0).parse(-2)).hasMessage("must be a whole number >= 0 but was -2");
    assertThatThrownBy(() -> Parsers.MEMORY.parse(-1L)).hasMessage("must be >= 0 bytes but was -1");
    assertThatThrownBy(() -> Parsers.MEMORY.parse("1.5")).hasMessageContaining("must be whole");
    assertThatThrownBy(() -> Parsers.MEMORY.parse(List.of("1GB"))).hasMessageEndingWith("but was a list");
    assertThatThrownBy(() -> Parsers.CORES.parse(Double.NaN)).hasMessage("must be a number >= 0 but was NaN");
    assertThatThrownBy(() -> Parsers.POSITIVE_DURATION.parse("0s")).hasMessageContaining("must be longer than 0");
    assertThatThrownBy(() -> Parsers.TEXT.parse(null)).hasMessage("must be a single value but was empty");
  }

  @Test
  void aProblemInsideAListIsPlacedAtItsIndex() {
    InvalidValue e = catchInvalid(() -> Parsers.DEVICE_INDICES.parse(Arrays.asList("0", "x")));

    assertThat(e.path()).isEqualTo("[1]");
    assertThat(e.under("targets").path()).isEqualTo("targets[1]");
    assertThat(Parsers.DEVICE_INDICES.parse(List.of("1", "0", "1"))).containsExactly(1, 0);
  }

  @Test
  void plainlyNumericTextIsANumberButOtherTextIsNot() {
    assertThat(Parsers.number("2")).isPresent();
    assertThat(Parsers.number(".5")).isPresent();
    assertThat(Parsers.number("two")).isEmpty();
    assertThat(Parsers.number(Map.of())).isEmpty();
    assertThat(Parsers.number(Double.POSITIVE_INFINITY)).isEmpty();
  }

  private static InvalidValue catchInvalid(Runnable r) {
    try {
      r.run();
    } catch (InvalidValue e) {
      return e;
    }
    throw new AssertionError("no InvalidValue");
  }
}
