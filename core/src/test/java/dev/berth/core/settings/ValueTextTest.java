package dev.berth.core.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueTextTest {

  @Test
  void bytesAndDurationsUseTheLargestExactUnit() {
    assertThat(ValueText.bytes(512L << 20)).isEqualTo("512MiB");
    assertThat(ValueText.bytes(1_500_000)).isEqualTo("1500kB");
    assertThat(ValueText.bytes(1001)).isEqualTo("1001");
    assertThat(ValueText.bytes(0)).isEqualTo("0");
    assertThat(ValueText.duration(Duration.ofMinutes(90))).isEqualTo("1h30m");
    assertThat(ValueText.duration(Duration.ofMillis(250))).isEqualTo("250ms");
  }

  @Test
  void whatIsWrittenReadsBackAsTheSameValue() {
    assertThat(Parsers.MEMORY.parse(ValueText.bytes(123_456_789))).isEqualTo(123_456_789);
    assertThat(Parsers.DURATION.parse(ValueText.duration(Duration.ofMillis(90_061_001))))
        .isEqualTo(Duration.ofMillis(90_061_001));
    assertThat(Parsers.TEXT_LIST.parse(List.of("a", "b"))).containsExactly("a", "b");
    assertThat(ValueText.list(List.of("a", "b"))).isEqualTo("[a, b]");
  }
}
