package dev.berth.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MessageJsonTest {

  enum Color { RED }

  @Test
  void scalarsAreWrittenAsJson() {
    assertThat(MessageJson.write(null)).isEqualTo("null");
    assertThat(MessageJson.write(true)).isEqualTo("true");
    assertThat(MessageJson.write(42)).isEqualTo("42");
    assertThat(MessageJson.write(-7L)).isEqualTo("-7");
    assertThat(MessageJson.write(0.25)).isEqualTo("0.25");
    assertThat(MessageJson.write(0.1f)).isEqualTo("0.1");
    assertThat(MessageJson.write(1e300)).isEqualTo("1.0E300");
    assertThat(MessageJson.write(new BigInteger("123456789012345678901234567890"))).isEqualTo("123456789012345678901234567890");
    assertThat(MessageJson.write(new BigDecimal("1E+3"))).isEqualTo("1E+3");
    assertThat(MessageJson.write("plain")).isEqualTo("\"plain\"");
  }

  @Test
  void stringsAreEscaped() {
    assertThat(MessageJson.write("a\"b\\c\nd\te\u0001f/\u00e9\u2028"))
        .isEqualTo("\"a\\\"b\\\\c\\nd\\te\\u0001f/\u00e9\\u2028\"");
  }

  @Test
  void nonFiniteNumbersBecomeStrings() {
    assertThat(MessageJson.write(List.of(Double.NaN, Double.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY)))
        .isEqualTo("[\"NaN\",\"Infinity\",\"-Infinity\"]");
  }

  @Test
  void containersAndOtherObjectsAreWritten() {
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put("list", List.of(1, "two"));
    map.put(3, Set.of());
    map.put("ints", new int[] {1, 2});
    map.put("none", null);
    map.put("color", Color.RED);
    map.put("nested", Map.of("k", new Object[] {false}));

    assertThat(MessageJson.write(map)).isEqualTo(
        "{\"list\":[1,\"two\"],\"3\":[],\"ints\":[1,2],\"none\":null,\"color\":\"RED\",\"nested\":{\"k\":[false]}}");
  }

  @Test
  void aValueThatContainsItselfIsRejected() {
    List<Object> list = new ArrayList<>();
    list.add(list);

    assertThatThrownBy(() -> MessageJson.write(list)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("itself");
  }

  @Test
  void theSameValueTwiceIsNotACycle() {
    List<Integer> shared = List.of(1);

    assertThat(MessageJson.write(List.of(shared, shared))).isEqualTo("[[1],[1]]");
  }

  @Test
  void valuesAreRead() {
    assertThat(MessageJson.parse(" {\"a\": [1, -2.5e3, true, false, null, \"x\"], \"b\": {}} "))
        .isEqualTo(Map.of("a", Arrays.asList(1, -2500.0, true, false, null, "x"), "b", Map.of()));
    assertThat(MessageJson.parse("123456789012345678901234567890")).isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(MessageJson.parse("\"\\u00e9\\ud83d\\ude00\\n\\/\"")).isEqualTo("\u00e9\uD83D\uDE00\n/");
    assertThat(MessageJson.parse("[]")).isEqualTo(List.of());
  }

  @Test
  void wholeNumbersReadAsTheSmallestTypeThatHoldsThemAsJacksonDoes() {
    assertThat(MessageJson.parse("[2147483647, 2147483648, -9223372036854775808, 9223372036854775808]")).isEqualTo(
        List.of(Integer.MAX_VALUE, 2147483648L, Long.MIN_VALUE, new BigInteger("9223372036854775808")));
  }

  @Test
  void nonFiniteNumbersAreReadFromTheirBareTokens() {
    assertThat(MessageJson.parse("[NaN, Infinity, -Infinity, \"NaN\"]"))
        .isEqualTo(Arrays.asList(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, "NaN"));
  }

  @Test
  void objectsKeepTheirKeyOrder() {
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) MessageJson.parse("{\"z\":1,\"a\":2,\"m\":3}");

    assertThat(map.keySet()).containsExactly("z", "a", "m");
  }

  @Test
  void writtenValuesReadBack() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("s", "q\"uote\u0000");
    value.put("n", 12);
    value.put("d", 0.5);
    value.put("l", Arrays.asList(null, true, List.of()));
    value.put("m", Map.of("x", "y"));

    assertThat(MessageJson.parse(MessageJson.write(value))).isEqualTo(value);
  }

  @Test
  void malformedTextIsRejectedWithItsPosition() {
    for (String bad : List.of("", "{", "[1,]", "{\"a\" 1}", "{a:1}", "01", "1.", "tru", "\"open", "\"\\x\"",
        "[1] 2", "\"a\nb\"", "Nan", "-Inf", "1" + "0".repeat(1000), "[".repeat(1001))) {
      assertThatThrownBy(() -> MessageJson.parse(bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed JSON at character");
    }
  }
}
