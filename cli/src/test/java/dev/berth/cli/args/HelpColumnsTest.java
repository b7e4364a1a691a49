package dev.berth.cli.args;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HelpColumnsTest {

  @Test
  void textIsBrokenAtSpacesWithinTheWidth() {
    assertThat(HelpColumns.wrap("one two three four", 9)).containsExactly("one two", "three", "four");
  }

  @Test
  void aWordLongerThanTheWidthHasALineToItself() {
    assertThat(HelpColumns.wrap("a ~/.berth/serve-token b", 6)).containsExactly("a", "~/.berth/serve-token", "b");
  }

  @Test
  void theRightColumnStartsAfterTheWidestLeftEntry() {
    String table = new HelpColumns().row("  0", "zero").row("  129", "one two nine").render();

    assertThat(table).isEqualTo("  0     zero\n  129   one two nine\n");
  }

  @Test
  void aLeftEntryTooWideForTheColumnHasItsDescriptionOnTheNextLine() {
    String wide = "      --a-very-long-option=WITH|A|LONG|LABEL";
    String table = new HelpColumns().row("  -h, --help", "Help.").row(wide, "What it does.").render();

    assertThat(table).isEqualTo("  -h, --help" + " ".repeat(18) + "Help.\n" + wide + "\n" + " ".repeat(30)
        + "What it does.\n");
  }

  @Test
  void aHangingListBreaksBetweenItemsAndIndentsPastItsStart() {
    List<String> items = List.of("[--aaaaaaaaaaaaaaaaaaaa]", "[--bbbbbbbbbbbbbbbbbbbb]", "[--cccccccccccccccccccc]",
        "SPEC");

    assertThat(HelpColumns.hanging("Usage: berth run", items)).isEqualTo(
        "Usage: berth run [--aaaaaaaaaaaaaaaaaaaa] [--bbbbbbbbbbbbbbbbbbbb]\n"
            + "                 [--cccccccccccccccccccc] SPEC\n");
  }
}
