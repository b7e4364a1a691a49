package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EscapeTest {

  @Test
  void htmlEscapesTheFiveSpecialCharacters() {
    assertThat(Escape.html("<a href=\"x\">'&'</a>")).isEqualTo("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  }

  @Test
  void controlCharactersAreReplacedSoThePageStaysParseable() {
    assertThat(Escape.html("a\u0000b\u001bc\td\ne")).isEqualTo("a\uFFFDb\uFFFDc\td\ne");
  }

  @Test
  void urlSegmentsKeepUnreservedCharactersAndEncodeTheRest() {
    assertThat(Escape.urlSegment("train-0.1_a~b")).isEqualTo("train-0.1_a~b");
    assertThat(Escape.urlSegment("a b/é")).isEqualTo("a%20b%2F%C3%A9");
    assertThat(Escape.urlSegment("..")).isEqualTo("%2E%2E");
  }

  @Test
  void markdownEscapesCellBreakersAndMarkup() {
    assertThat(Escape.markdown("a|b\\c*d`e[f]<g>\r\nh")).isEqualTo("a\\|b\\\\c\\*d\\`e\\[f\\]\\<g\\><br>h");
  }

  @Test
  void csvQuotesOnlyWhenNeeded() {
    assertThat(Escape.csv("plain")).isEqualTo("plain");
    assertThat(Escape.csv("a,b")).isEqualTo("\"a,b\"");
    assertThat(Escape.csv("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(Escape.csv("two\nlines")).isEqualTo("\"two\nlines\"");
  }

  @Test
  void slackTextEscapesItsThreeControlCharacters() {
    assertThat(Escape.slack("<b> & <c>")).isEqualTo("&lt;b&gt; &amp; &lt;c&gt;");
  }
}
