package dev.berth.core.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizeTest {

  private static final long KIB = 1024L;
  private static final long MIB = 1024L * KIB;
  private static final long GIB = 1024L * MIB;

  @ParameterizedTest(name = "\"{0}\" = {1} bytes")
  @CsvSource(delimiter = '|', textBlock = """
      123KB     | 123000
      456 MB    | 456000000
      789MiB    | 827326464
      1.5GiB    | 1610612736
      2048      | 2048
      0         | 0
      4kB       | 4000
      4KB       | 4000
      4KiB      | 4096
      7B        | 7
      1TB       | 1000000000000
      1TiB      | 1099511627776
      1PB       | 1000000000000000
      2PiB      | 2251799813685248
      '  512MiB  ' | 536870912
      '3   GB'   | 3000000000
      """)
  void parsesByteUnitsDecimalAndBinary(String text, long expected) {
    assertThat(ByteSize.parse(text))
        .as("'%s' should be %d bytes", text, expected)
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "\"{0}\" = {1} bytes")
  @CsvSource(delimiter = '|', textBlock = """
      8Mb   | 1000000
      8b    | 1
      16b   | 2
      8kb   | 1000
      8Kb   | 1000
      8Kib  | 1024
      8Mib  | 1048576
      1Gb   | 125000000
      8Gib  | 1073741824
      """)
  void lowerCaseBIsBitsAndEightBitsMakeAByte(String text, long expected) {
    assertThat(ByteSize.parse(text))
        .as("'%s' is a number of bits, so it is %d bytes", text, expected)
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "\"{0}\" rounds up to {1} bytes")
  @CsvSource(delimiter = '|', textBlock = """
      1.5       | 2
      0.1       | 1
      0.001KB   | 1
      1.0001KB  | 1001
      1.1KiB    | 1127
      1b        | 1
      9b        | 2
      1.5Kib    | 192
      """)
  void fractionsOfAByteRoundUpNeverDown(String text, long expected) {
    // 1.1 KiB = 1126.4 bytes -> 1127; 9 bits = 1.125 bytes -> 2; 1.5 Kib = 192 bytes exactly.
    assertThat(ByteSize.parse(text))
        .as("'%s' must round up to a whole byte", text)
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "\"{0}\" is rejected")
  @ValueSource(strings = {
      "", "   ", "abc", "12 XB", "-1GB", "1..5GB", "GB", "1 G B", "4 gigabytes", "1e9", "1,5GB",
      ".5GB", "5.GB", "0x10", "12 kib", "1 mb", "1GB extra", "+1GB", "1 GiB 2", "NaN", "Infinity"
  })
  void rejectsAnythingThatIsNotASizeNamingTheValue(String text) {
    assertThatThrownBy(() -> ByteSize.parse(text))
        .as("'%s' must be rejected, never read as a silent 0", text)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'");
  }

  @ParameterizedTest
  @NullSource
  void rejectsAMissingSizeWithAnExample(String text) {
    assertThatThrownBy(() -> ByteSize.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("512MiB");
  }

  @Test
  void anUnknownUnitIsNamedInTheMessageAlongsideTheAcceptedOnes() {
    assertThatThrownBy(() -> ByteSize.parse("12 XB"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown unit 'XB'")
        .hasMessageContaining("MiB")
        .hasMessageContaining("GB");
  }

  @ParameterizedTest
  @ValueSource(strings = {"9223372036854775808", "8EiB", "9999999PB", "10000000000000000000000"})
  void rejectsSizesTooLargeForALongInsteadOfOverflowing(String text) {
    assertThatThrownBy(() -> ByteSize.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'");
  }

  @Test
  void theLargestLongStillParses() {
    assertThat(ByteSize.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest(name = "{0} bytes -> \"{1}\"")
  @CsvSource(delimiter = '|', textBlock = """
      0                   | 0 B
      1                   | 1 B
      1023                | 1023 B
      1024                | 1 KiB
      1536                | 1.5 KiB
      1048576             | 1 MiB
      1610612736          | 1.5 GiB
      827326464           | 789 MiB
      1099511627776       | 1 TiB
      1125899906842624    | 1 PiB
      2251799813685248    | 2 PiB
      1152921504606846976 | 1024 PiB
      -1536               | -1.5 KiB
      -5                  | -5 B
      """)
  void formatsWithTheLargestBinaryUnitThatKeepsAWholeUnit(long bytes, String expected) {
    assertThat(ByteSize.format(bytes)).isEqualTo(expected);
  }

  @Test
  void formatsOneAndAHalfGibibytesReadably() {
    assertThat(ByteSize.format(1536L << 20)).isEqualTo("1.5 GiB");
  }

  @Test
  void formatsTheExtremesWithoutFailing() {
    assertThat(ByteSize.format(Long.MAX_VALUE)).isEqualTo("8192 PiB");
    assertThat(ByteSize.format(Long.MIN_VALUE)).isEqualTo("-8192 PiB");
  }

  @Test
  void formattedSizesParseBackToTheSameNumberOfBytesWhenTheyAreExact() {
    for (long bytes : new long[] {0, 1, 1023, KIB, 3 * KIB / 2, MIB, 789 * MIB, GIB, 3 * GIB / 2, 1L << 40}) {
      String text = ByteSize.format(bytes).replace(" ", "");
      assertThat(ByteSize.parse(text))
          .as("format(%d) = '%s' should parse back to %d", bytes, text, bytes)
          .isEqualTo(bytes);
    }
  }

  @Property(tries = 300)
  void formatThenParseIsWithinTheRoundingOfOneDecimal(@ForAll @LongRange(min = 0, max = 1L << 52) long bytes) {
    String text = ByteSize.format(bytes);
    long back = ByteSize.parse(text.replace(" ", ""));
    // One decimal of the chosen unit: the error is at most half a tenth of that unit, and the unit
    // is at most the size itself, so 5% plus rounding slack bounds it.
    double tolerance = Math.max(0.5, bytes * 0.05 + 1);
    assertThat((double) Math.abs(back - bytes))
        .as("format(%d) = '%s' reads back as %d", bytes, text, back)
        .isLessThanOrEqualTo(tolerance);
  }

  @Property(tries = 300)
  void everyWholeNumberOfBinaryUnitsParsesExactly(
      @ForAll @LongRange(min = 0, max = 1_000_000) long n) {
    assertThat(ByteSize.parse(n + "KiB")).isEqualTo(n * KIB);
    assertThat(ByteSize.parse(n + " MiB")).isEqualTo(n * MIB);
    assertThat(ByteSize.parse(n + "GiB")).isEqualTo(n * GIB);
    assertThat(ByteSize.parse(n + "MB")).isEqualTo(n * 1_000_000L);
  }
}
