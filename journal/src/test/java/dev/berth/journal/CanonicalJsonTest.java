package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalJsonTest {

  @Test
  void objectKeysAreSortedAtEveryLevelAndNothingIsIndented() {
    ObjectNode value = CanonicalJson.object();
    value.put("b", 1);
    value.putArray("a").add(true).addNull().add(1.5);
    value.putObject("c").put("z", 0).put("y", "x");

    assertThat(CanonicalJson.write(value)).isEqualTo("{\"a\":[true,null,1.5],\"b\":1,\"c\":{\"y\":\"x\",\"z\":0}}");
  }

  @Test
  void numbersAreWrittenAsBerthsFirstWriterWroteThem() {
    ObjectNode value = CanonicalJson.object();
    value.put("backoff", 2.0).put("big", 1e300).put("small", 1e-5).put("fraction", 0.8);
    value.put("cores", new BigDecimal("10.000").stripTrailingZeros()).put("half", new BigDecimal("0.500"));
    value.put("long", Long.MAX_VALUE);

    assertThat(CanonicalJson.write(value)).isEqualTo("{\"backoff\":2.0,\"big\":1.0E300,\"cores\":10,"
        + "\"fraction\":0.8,\"half\":0.500,\"long\":9223372036854775807,\"small\":1.0E-5}");
  }

  @Test
  void stringsEscapeQuotesBackslashesControlCharactersAndSurrogatesInLowerCaseHex() {
    assertThat(CanonicalJson.write(CanonicalJson.strings(List.of("a\"b\\c\n\u0001\u001fé\uD83D\uDE80/\uDE80"))))
        .isEqualTo("[\"a\\\"b\\\\c\\n\\u0001\\u001fé\\ud83d\\ude80/\\ude80\"]");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void anyStringSurvivesWritingAndParsing(long seed) {
    RandomSpecs random = new RandomSpecs(seed);
    for (int i = 0; i < 500; i++) {
      String s = random.any();

      assertThat(CanonicalJson.parse(CanonicalJson.write(CanonicalJson.strings(List.of(s)))).get(0).textValue())
          .isEqualTo(s);
    }
  }

  @Test
  void numbersAreReadExactly() {
    assertThat(CanonicalJson.parse("9223372036854775807").longValue()).isEqualTo(Long.MAX_VALUE);
    assertThat(CanonicalJson.parse(Double.toString(0.1 + 0.2)).decimalValue().doubleValue()).isEqualTo(0.1 + 0.2);
    assertThat(CanonicalJson.parse("1000.999").decimalValue()).isEqualByComparingTo("1000.999");
  }

  @Test
  void parsingAcceptsWhitespaceAndEveryEscape() {
    assertThat(CanonicalJson.parse(" { \"k\" : [ 1 , \"\\u0041\\/\\b\\f\\r\\t\" ] } "))
        .isEqualTo(CanonicalJson.object().set("k", CanonicalJson.strings(List.of("A/\b\f\r\t")).insert(0, 1)));
  }

  @Test
  void textThatIsNotJsonIsRefusedOnOneLineWithThePosition() {
    Map<String, String> bad = Map.of(
        "{\"a\":1,}", "at character 8",
        "[1 2]", "at character 4",
        "01", "at character 2",
        "\"abc", "at character 5",
        "{\"a\":1,\"a\":2}", "Duplicate field 'a'",
        "[1] 2", "Trailing token",
        "nul", "at character 1",
        "NaN", "at character 4",
        "", "no value at all",
        "[".repeat(2000), "nesting depth");
    bad.forEach((text, problem) -> assertThatThrownBy(() -> CanonicalJson.parse(text)).as(text)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("not JSON: ").hasMessageContaining(problem).hasMessageNotContaining("\n"));
  }
}
