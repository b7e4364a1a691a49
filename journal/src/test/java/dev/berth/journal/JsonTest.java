package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {

  @Test
  void objectKeysAreSortedAndNothingIsIndented() {
    Map<String, Json> fields = new LinkedHashMap<>();
    fields.put("b", Json.of(1));
    fields.put("a", new Json.Arr(List.of(Json.of(true), Json.NULL, Json.of(1.5))));

    assertThat(JsonWriter.write(new Json.Obj(fields))).isEqualTo("{\"a\":[true,null,1.5],\"b\":1}");
  }

  @Test
  void stringsEscapeQuotesBackslashesControlCharactersAndSurrogates() {
    assertThat(JsonWriter.write(Json.of("a\"b\\c\n\u0001é\uD83D\uDE80")))
        .isEqualTo("\"a\\\"b\\\\c\\n\\u0001é\\ud83d\\ude80\"");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void anyStringSurvivesWritingAndParsing(long seed) {
    RandomSpecs random = new RandomSpecs(seed);
    for (int i = 0; i < 500; i++) {
      String s = random.any();

      assertThat(JsonParser.parse(JsonWriter.write(Json.of(s)))).isEqualTo(Json.of(s));
    }
  }

  @Test
  void numbersKeepTheirExactValue() {
    assertThat(((Json.Num) JsonParser.parse("9223372036854775807")).longValue()).isEqualTo(Long.MAX_VALUE);
    assertThat(((Json.Num) JsonParser.parse(Json.of(0.1 + 0.2).toString())).doubleValue()).isEqualTo(0.1 + 0.2);
    assertThat(((Json.Num) JsonParser.parse("-1.5e-3")).doubleValue()).isEqualTo(-0.0015);
  }

  @Test
  void parsingAcceptsWhitespaceAndEveryEscape() {
    assertThat(JsonParser.parse(" { \"k\" : [ 1 , \"\\u0041\\/\\b\\f\\r\\t\" ] } "))
        .isEqualTo(new Json.Obj(Map.of("k", new Json.Arr(List.of(Json.of(1), Json.of("A/\b\f\r\t"))))));
  }

  @Test
  void textThatIsNotJsonIsRefusedWithThePosition() {
    assertThatThrownBy(() -> JsonParser.parse("{\"a\":1,}")).hasMessage("not JSON: expected a string key at character 8");
    assertThatThrownBy(() -> JsonParser.parse("[1 2]")).hasMessage("not JSON: expected ']' at character 4");
    assertThatThrownBy(() -> JsonParser.parse("01")).hasMessage("not JSON: unexpected text after the value at character 2");
    assertThatThrownBy(() -> JsonParser.parse("\"abc")).hasMessage("not JSON: unterminated string at character 5");
    assertThatThrownBy(() -> JsonParser.parse("{\"a\":1,\"a\":2}")).hasMessage("not JSON: duplicate key \"a\" at character 8");
    assertThatThrownBy(() -> JsonParser.parse("")).hasMessage("not JSON: unexpected end of text at character 1");
    assertThatThrownBy(() -> JsonParser.parse("nul")).hasMessage("not JSON: unexpected text at character 1");
    assertThatThrownBy(() -> JsonParser.parse("[".repeat(600))).hasMessageContaining("nested deeper than 512 levels");
  }

  @Test
  void nonFiniteNumbersCannotBeWritten() {
    assertThatThrownBy(() -> Json.of(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
