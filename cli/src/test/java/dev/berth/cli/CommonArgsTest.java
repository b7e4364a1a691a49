package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.cli.args.Parser;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The check every command makes of the options whose label lists their values. */
class CommonArgsTest {

  private static final Option FIRST = Option.value("--first", "a|b", "First.");
  private static final Option SECOND = Option.value("--second", "on|off", "Second.");
  private static final CommandSyntax SYNTAX = CommandSyntax.describedAs("Test command.").options(FIRST, SECOND).build();

  @Test
  void onlyTheFirstValueOutsideItsChoicesIsToldInOneLine() {
    StringWriter err = new StringWriter();
    Arguments args = Parser.parse(SYNTAX, new String[] {"--first", "c", "--second", "maybe"}, 0);

    assertThat(CommonArgs.choicesValid(args, new PrintWriter(err, true), SECOND, FIRST)).isFalse();
    assertThat(err).hasToString("berth: --second must be on or off, not maybe" + System.lineSeparator());
  }

  @Test
  void valuesAmongTheChoicesAndOptionsNotGivenPass() {
    StringWriter err = new StringWriter();
    Arguments args = Parser.parse(SYNTAX, new String[] {"--first", "b"}, 0);

    assertThat(CommonArgs.choicesValid(args, new PrintWriter(err, true), FIRST, SECOND)).isTrue();
    assertThat(err.toString()).isEmpty();
  }
}
