package dev.berth.cli.args;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ParserTest {

  private static final Parameter SPEC = Parameter.required("SPEC", "The spec.");
  private static final Parameter TASKS = Parameter.rest("TASK", "Tasks.");
  private static final Option CONFIG = Option.value("--config", "FILE", "Config file.");
  private static final Option SET = Option.value("--set", "KEY=VALUE", "Override a key.").repeatable();
  private static final Option GPUS = Option.value("--gpus", "VALUE", "GPUs.").defaultValue("auto");
  private static final Option JSON = Option.flag("--json", "JSON.");
  private static final Option ALL = Option.flag("--all", "All.").alias("-a");
  private static final Option PORT = Option.value("--port", "N", "Port.").integer().defaultValue("8765");
  private static final Option SERVE = Option.value("--serve", "PORT", "Serve.").optionalValue("8765").integer();
  private static final Option REASON = Option.value("--reason", "TEXT", "Why.");
  private static final Option MODE = Option.value("--mode", "ask|cancel|leave", "Mode.");

  private static final CommandSyntax SYNTAX = CommandSyntax.describedAs("Test command.")
      .parameter(SPEC).parameter(TASKS).options(CONFIG, SET, GPUS, JSON, ALL, PORT, SERVE, REASON, MODE).build();

  private static Arguments parse(String... args) {
    return Parser.parse(SYNTAX, args, 0);
  }

  private static String mistake(String... args) {
    try {
      parse(args);
    } catch (BadUsage e) {
      return e.getMessage();
    }
    throw new AssertionError("no mistake found in " + String.join(" ", args));
  }

  @Test
  void aValueOutsideTheChoicesItsLabelListsIsNamedWithThem() {
    assertThat(MODE.choices()).containsExactly("ask", "cancel", "leave");
    assertThat(CONFIG.choices()).isEmpty();
    assertThat(parse("s.yaml", "--mode", "later").notAChoice(MODE))
        .contains("--mode must be ask, cancel or leave, not later");
    assertThat(parse("s.yaml", "--mode", "cancel").notAChoice(MODE)).isEmpty();
    assertThat(parse("s.yaml").notAChoice(MODE)).isEmpty();
    assertThat(parse("s.yaml", "--config", "x").notAChoice(CONFIG)).isEmpty();
  }

  @Test
  void aValueReadsTheSameAfterASpaceOrAnEqualsSign() {
    assertThat(parse("--config", "a.yaml", "s.yaml").path(CONFIG)).isEqualTo(Path.of("a.yaml"));
    assertThat(parse("--config=a.yaml", "s.yaml").path(CONFIG)).isEqualTo(Path.of("a.yaml"));
  }

  @Test
  void aValueAfterAnEqualsSignMayHoldEqualsSignsAndBeEmpty() {
    assertThat(parse("--set=a=b", "s.yaml").values(SET)).containsExactly("a=b");
    assertThat(parse("--reason=", "s.yaml").value(REASON)).isEmpty();
  }

  @Test
  void aRepeatableOptionKeepsEveryValueInOrder() {
    Arguments args = parse("--set", "k=v", "s.yaml", "--set=k2=v2", "--set", "k3=v3");

    assertThat(args.values(SET)).containsExactly("k=v", "k2=v2", "k3=v3");
    assertThat(parse("s.yaml").values(SET)).isEmpty();
  }

  @Test
  void aValueMayStartWithADashWhenItIsNoOptionOfTheCommand() {
    assertThat(parse("--reason", "-x", "s.yaml").value(REASON)).isEqualTo("-x");
    assertThat(parse("--port", "-1", "s.yaml").integer(PORT)).isEqualTo(-1);
  }

  @Test
  void positionalArgumentsMayComeBeforeBetweenAndAfterOptions() {
    Arguments args = parse("s.yaml", "--json", "t1", "--config", "c.yaml", "t2");

    assertThat(args.value(SPEC)).isEqualTo("s.yaml");
    assertThat(args.values(TASKS)).containsExactly("t1", "t2");
    assertThat(args.flag(JSON)).isTrue();
    assertThat(args.value(CONFIG)).isEqualTo("c.yaml");
  }

  @Test
  void everythingAfterADoubleDashIsPositional() {
    Arguments args = parse("--json", "--", "--config", "-a", "--");

    assertThat(args.value(SPEC)).isEqualTo("--config");
    assertThat(args.values(TASKS)).containsExactly("-a", "--");
    assertThat(args.has(CONFIG)).isFalse();
    assertThat(args.flag(ALL)).isFalse();
  }

  @Test
  void aLoneDashIsAPositionalArgument() {
    assertThat(parse("-").value(SPEC)).isEqualTo("-");
  }

  @Test
  void theDefaultAppliesOnlyWhenTheOptionIsNotGiven() {
    assertThat(parse("s.yaml").value(GPUS)).isEqualTo("auto");
    assertThat(parse("s.yaml").integer(PORT)).isEqualTo(8765);
    assertThat(parse("s.yaml", "--gpus", "none").value(GPUS)).isEqualTo("none");
    assertThat(parse("s.yaml").value(CONFIG)).isNull();
    assertThat(parse("s.yaml").path(CONFIG)).isNull();
  }

  @Test
  void aFlagIsOnOnlyWhenGivenAndMaySayTrueOrFalse() {
    assertThat(parse("s.yaml").flag(JSON)).isFalse();
    assertThat(parse("s.yaml", "--json").flag(JSON)).isTrue();
    assertThat(parse("s.yaml", "--json=false").flag(JSON)).isFalse();
    assertThat(parse("s.yaml", "--json=TRUE").flag(JSON)).isTrue();
    assertThat(mistake("s.yaml", "--json=3")).isEqualTo("Invalid value for option '--json': '3' is not a boolean");
  }

  @Test
  void shortFlagsAnswerAloneOrTogether() {
    assertThat(parse("s.yaml", "-a").flag(ALL)).isTrue();
    Arguments together = parse("s.yaml", "-ah");
    assertThat(together.flag(ALL)).isTrue();
    assertThat(together.helpAsked()).isTrue();
    assertThat(mistake("s.yaml", "-az")).isEqualTo("Unknown option: '-az'");
  }

  @Test
  void anOptionalValueIsTheFallbackWhenLeftOut() {
    assertThat(parse("s.yaml").integer(SERVE)).isNull();
    assertThat(parse("s.yaml", "--serve").integer(SERVE)).isEqualTo(8765);
    assertThat(parse("--serve=0", "s.yaml").integer(SERVE)).isZero();
    assertThat(parse("--serve", "9000", "s.yaml").integer(SERVE)).isEqualTo(9000);
  }

  @Test
  void anOptionalNumberDoesNotTakeAnArgumentThatIsNoNumber() {
    Arguments args = parse("--serve", "s.yaml", "t1");

    assertThat(args.integer(SERVE)).isEqualTo(8765);
    assertThat(args.value(SPEC)).isEqualTo("s.yaml");
    assertThat(args.values(TASKS)).containsExactly("t1");
  }

  @Test
  void aValueThatIsNoNumberIsRefusedForANumberOption() {
    assertThat(mistake("s.yaml", "--port", "abc")).isEqualTo("Invalid value for option '--port': 'abc' is not an int");
    assertThat(mistake("s.yaml", "--serve=x")).isEqualTo("Invalid value for option '--serve': 'x' is not an int");
  }

  @Test
  void anUnknownOptionIsAMistakeNamingIt() {
    assertThat(mistake("--x", "s.yaml")).isEqualTo("Unknown option: '--x'");
    assertThat(mistake("s.yaml", "--x=1")).isEqualTo("Unknown option: '--x=1'");
    assertThat(mistake("s.yaml", "-x")).isEqualTo("Unknown option: '-x'");
  }

  @Test
  void theFirstMistakeIsTheOneReported() {
    assertThat(mistake("--x", "--config")).isEqualTo("Unknown option: '--x'");
  }

  @Test
  void aMissingValueIsAMistakeNamingTheOptionAndItsLabel() {
    assertThat(mistake("s.yaml", "--config")).isEqualTo("Missing required parameter for option '--config' (FILE)");
    assertThat(mistake("--config", "--json", "s.yaml"))
        .isEqualTo("Missing required parameter for option '--config' (FILE)");
    assertThat(mistake("--config", "--", "s.yaml")).isEqualTo("Missing required parameter for option '--config' (FILE)");
  }

  @Test
  void aMissingPositionalParameterIsAMistakeNamingIt() {
    assertThat(mistake()).isEqualTo("Missing required parameter: 'SPEC'");
    assertThat(mistake("--json")).isEqualTo("Missing required parameter: 'SPEC'");
  }

  @Test
  void anArgumentNoParameterTakesIsUnmatchedWithItsIndexOnTheWholeLine() {
    CommandSyntax one = CommandSyntax.describedAs("One.").parameter(SPEC).build();

    assertThatThrownBy(() -> Parser.parse(one, new String[] {"validate", "a", "b"}, 1))
        .isInstanceOf(BadUsage.class).hasMessage("Unmatched argument at index 2: 'b'");
    assertThatThrownBy(() -> Parser.parse(one, new String[] {"a", "b", "c"}, 0))
        .isInstanceOf(BadUsage.class).hasMessage("Unmatched arguments from index 1: 'b', 'c'");
  }

  @Test
  void aSecondValueForAnOptionThatIsNotRepeatableIsAMistake() {
    assertThat(mistake("s.yaml", "--config", "a", "--config=b"))
        .isEqualTo("option '--config' (FILE) should be specified only once");
    assertThat(mistake("s.yaml", "--json", "--json")).isEqualTo("option '--json' should be specified only once");
  }

  @Test
  void helpAndVersionWinOverAnyMistake() {
    Arguments help = parse("--x", "--config", "--help");
    Arguments version = parse("a", "b", "c", "-V");

    assertThat(help.helpAsked()).isTrue();
    assertThat(help.versionAsked()).isFalse();
    assertThat(version.versionAsked()).isTrue();
    assertThat(version.helpAsked()).isFalse();
    assertThat(parse("-h").helpAsked()).isTrue();
    assertThat(parse("--version").versionAsked()).isTrue();
  }

  @Test
  void helpAfterADoubleDashIsAnArgument() {
    Arguments args = parse("--", "--help");

    assertThat(args.helpAsked()).isFalse();
    assertThat(args.value(SPEC)).isEqualTo("--help");
  }

  @Test
  void anOptionalParameterMayBeLeftOut() {
    Parameter workdir = Parameter.optional("WORKDIR", "The run.");
    CommandSyntax status = CommandSyntax.describedAs("Status.").parameter(workdir).build();

    assertThat(Parser.parse(status, new String[0], 0).value(workdir)).isNull();
    assertThat(Parser.parse(status, new String[] {"w"}, 0).path(workdir)).isEqualTo(Path.of("w"));
  }

  @Test
  void exactlyOneOptionOfAChoiceMustBeGiven() {
    Option defaults = Option.flag("--defaults", "Defaults.");
    Option effective = Option.value("--effective", "SPEC", "Effective.");
    CommandSyntax config = CommandSyntax.describedAs("Config.").oneOf(defaults, effective).build();

    assertThat(Parser.parse(config, new String[] {"--defaults"}, 0).flag(defaults)).isTrue();
    assertThat(Parser.parse(config, new String[] {"--effective", "s"}, 0).value(effective)).isEqualTo("s");
    assertThatThrownBy(() -> Parser.parse(config, new String[0], 0)).isInstanceOf(BadUsage.class)
        .hasMessage("Missing required argument (specify one of these): (--defaults | --effective=SPEC)");
    assertThatThrownBy(() -> Parser.parse(config, new String[] {"--defaults", "--effective=s"}, 0))
        .isInstanceOf(BadUsage.class)
        .hasMessage("--defaults, --effective=SPEC are mutually exclusive (specify only one)");
  }

  @Test
  void aSharedOptionReadsTheSameInEveryCommandThatDeclaresIt() {
    CommandSyntax other = CommandSyntax.describedAs("Other.").options(CONFIG).build();

    assertThat(Parser.parse(other, new String[] {"--config=x"}, 0).value(CONFIG)).isEqualTo("x");
    assertThat(parse("s.yaml", "--config=y").value(CONFIG)).isEqualTo("y");
  }
}
