package dev.berth.cli.args;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CommandSyntaxTest {

  @Test
  void everyCommandAnswersHelpAndVersionByTheirLongAndShortNames() {
    CommandSyntax syntax = CommandSyntax.describedAs("Nothing.").build();

    assertThat(syntax.option("--help")).isSameAs(CommandSyntax.HELP);
    assertThat(syntax.option("-h")).isSameAs(CommandSyntax.HELP);
    assertThat(syntax.option("--version")).isSameAs(CommandSyntax.VERSION);
    assertThat(syntax.option("-V")).isSameAs(CommandSyntax.VERSION);
    assertThat(syntax.option("--nothing")).isNull();
  }

  @Test
  void aNameDeclaredTwiceIsRefused() {
    CommandSyntax.Builder twice = CommandSyntax.describedAs("Twice.")
        .options(Option.flag("--json", "One."), Option.flag("--json", "Two."));
    CommandSyntax.Builder helpAgain = CommandSyntax.describedAs("Help again.").options(Option.flag("-h", "Mine."));

    assertThatThrownBy(twice::build).isInstanceOf(IllegalStateException.class).hasMessageContaining("--json");
    assertThatThrownBy(helpAgain::build).isInstanceOf(IllegalStateException.class).hasMessageContaining("-h");
  }

  @Test
  void onlyTheLastParameterMayBeLeftOut() {
    CommandSyntax.Builder optionalFirst = CommandSyntax.describedAs("Wrong.")
        .parameter(Parameter.optional("A", "A.")).parameter(Parameter.required("B", "B."));

    assertThatThrownBy(optionalFirst::build).isInstanceOf(IllegalStateException.class).hasMessageContaining("[A]");
  }

  @Test
  void aFlagTakesNeitherDefaultNorRepetitionNorNumber() {
    Option flag = Option.flag("--json", "JSON.");

    assertThatThrownBy(() -> flag.defaultValue("true")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(flag::repeatable).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(flag::integer).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anOptionNameMustLookLikeOne() {
    assertThatThrownBy(() -> Option.flag("json", "JSON.")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Option.flag("--", "Ends.")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Option.flag("--a=b", "Equals.")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aChangedCopyLeavesTheSharedOptionAsItWas() {
    Option config = Option.value("--config", "FILE", "Config.");
    Option withDefault = config.defaultValue("c.yaml");

    assertThat(config.defaultValue()).isNull();
    assertThat(withDefault.defaultValue()).isEqualTo("c.yaml");
  }
}
