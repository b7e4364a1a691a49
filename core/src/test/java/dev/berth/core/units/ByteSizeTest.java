package dev.berth.core.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
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

  static LongStream seeds() {
    return LongStream.range(0, 300);
  }

  /**
   * A long in [0, max], spread over every order of magnitude (a uniform draw from [0, 2^52] would
   * almost never be below a TiB): one time in eight an edge (0, 1, max - 1, max) or a value at a
   * binary unit boundary (1024^k - 1, 1024^k, 1024^k + 1); otherwise a random bit count b, then a
   * uniform value below 2^b (and at most max).
   */
  private static long anySize(Random rnd, long max) {
    if (rnd.nextInt(8) == 0) {
      long edge;
      if (rnd.nextBoolean()) {
        long[] edges = {0, 1, max - 1, max};
        edge = edges[rnd.nextInt(edges.length)];
      } else {
        edge = (1L << (10 * rnd.nextInt(6))) + rnd.nextInt(3) - 1;
      }
      return Math.max(0, Math.min(max, edge));
    }
    int bits = rnd.nextInt(64 - Long.numberOfLeadingZeros(max) + 1);
    long upper = bits == 0 ? 0 : Math.min(max, (1L << bits) - 1);
    return rnd.nextLong(upper + 1);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void formatThenParseIsWithinTheRoundingOfOneDecimal(long seed) {
    long bytes = anySize(new Random(seed), 1L << 52);
    String text = ByteSize.format(bytes);
    long back = ByteSize.parse(text.replace(" ", ""));
    // One decimal of the chosen unit: the error is at most half a tenth of that unit, and the unit
    // is at most the size itself, so 5% plus rounding slack bounds it.
    double tolerance = Math.max(0.5, bytes * 0.05 + 1);
    assertThat((double) Math.abs(back - bytes))
        .as("seed %d: format(%d) = '%s' reads back as %d", seed, bytes, text, back)
        .isLessThanOrEqualTo(tolerance);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyWholeNumberOfBinaryUnitsParsesExactly(long seed) {
    long n = anySize(new Random(seed), 1_000_000);
    assertThat(ByteSize.parse(n + "KiB")).as("seed %d: %dKiB", seed, n).isEqualTo(n * KIB);
    assertThat(ByteSize.parse(n + " MiB")).as("seed %d: %d MiB", seed, n).isEqualTo(n * MIB);
    assertThat(ByteSize.parse(n + "GiB")).as("seed %d: %dGiB", seed, n).isEqualTo(n * GIB);
    assertThat(ByteSize.parse(n + "MB")).as("seed %d: %dMB", seed, n).isEqualTo(n * 1_000_000L);
  }
}
