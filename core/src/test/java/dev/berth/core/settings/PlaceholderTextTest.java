package dev.berth.core.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PlaceholderTextTest {

  private static final Map<String, String> VALUES = Map.of("lr", "0.1", "seed", "7", "a-b", "$1\\x");

  @Test
  void aPlaceholderIsReplacedByItsValueAndOtherBracesStayAsWritten() {
    assertThat(PlaceholderText.fill("train-{lr}-{seed}", VALUES, null)).isEqualTo("train-0.1-7");
    assertThat(PlaceholderText.fill("awk '{print $1}' {lr}", VALUES, null)).isEqualTo("awk '{print $1}' 0.1");
    assertThat(PlaceholderText.fill("{a-b}", VALUES, null)).isEqualTo("$1\\x");
  }

  @Test
  void doubleBracesKeepTheNameInSingleBraces() {
    assertThat(PlaceholderText.fill("{{lr}} is {lr}", VALUES, null)).isEqualTo("{lr} is 0.1");
    assertThat(PlaceholderText.fill("{{{lr}}}", VALUES, null)).isEqualTo("{{lr}}");
    assertThat(PlaceholderText.fill("{{lr}", VALUES, null)).isEqualTo("{0.1");
  }

  @Test
  void emptyBracesAreTheBareValueOnlyWhenOneIsGiven() {
    assertThat(PlaceholderText.fill("x{}y", VALUES, null)).isEqualTo("x{}y");
    assertThat(PlaceholderText.fill("x{}y{seed}", VALUES, "v")).isEqualTo("xvy7");
  }

  @Test
  void namesAreListedOnceInOrderAndKeptNamesAreNotAmongThem() {
    assertThat(PlaceholderText.names("{seed}-{lr}-{seed}-{{other}}-{9x}-{}")).containsExactly("seed", "lr");
  }

  @Test
  void theFirstNameWithoutAValueIsTheMissingOne() {
    assertThat(PlaceholderText.missing("{lr}-{b}-{c}", VALUES)).contains("b");
    assertThat(PlaceholderText.missing("{lr}-{{b}}", VALUES)).isEmpty();
    assertThatThrownBy(() -> PlaceholderText.fill("{b}", VALUES, null)).hasMessageContaining("'{b}' has no value");
  }

  /** The rule as a regular expression, which the scanner must read alike on any text. */
  private static final String NAME = PlaceholderText.VARIABLE.pattern();
  private static final Pattern RULE = Pattern.compile(
      "\\{\\{(" + NAME + ")\\}\\}|\\{(" + NAME + ")\\}|(\\{\\})");

  @Test
  void theScannerReadsAnyTextAsTheRegularExpressionOfTheRuleDoes() {
    Random random = new Random(17);
    String alphabet = "{{}}ab_Z9- x";
    Map<String, String> values = Map.of("a", "A", "b", "B", "ab", "AB", "a-b", "A-B", "Z9", "z", "b_", "b");
    for (int n = 0; n < 20_000; n++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(12);
      for (int i = 0; i < length; i++) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String t = text.toString();
      assertThat(PlaceholderText.names(t)).as(t).containsExactlyElementsOf(namesByRule(t));
      Optional<String> missing = namesByRule(t).stream().filter(name -> !values.containsKey(name)).findFirst();
      assertThat(PlaceholderText.missing(t, values)).as(t).isEqualTo(missing);
      if (missing.isEmpty()) {
        assertThat(PlaceholderText.fill(t, values, null)).as(t).isEqualTo(fillByRule(t, values, null));
        assertThat(PlaceholderText.fill(t, values, "_")).as(t).isEqualTo(fillByRule(t, values, "_"));
      }
    }
  }

  private static Set<String> namesByRule(String text) {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = RULE.matcher(text);
    while (m.find()) {
      if (m.group(2) != null) {
        names.add(m.group(2));
      }
    }
    return names;
  }

  private static String fillByRule(String text, Map<String, String> values, String bare) {
    Matcher m = RULE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) != null) {
        replacement = "{" + m.group(1) + "}";
      } else if (m.group(2) != null) {
        replacement = values.get(m.group(2));
      } else {
        replacement = bare == null ? "{}" : bare;
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }
}
