package dev.berth.cli.args;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UsageTest {

  private static final Option CONFIG = Option.value("--config", "FILE", "Config file (default: ./config.yaml when"
      + " it exists).");
  private static final Option SET = Option.value("--set", "KEY=VALUE", "Override one config key.").repeatable();
  private static final Option SERVE = Option.value("--serve", "PORT", "Serve a dashboard.").optionalValue("8765");
  private static final Option ALL = Option.flag("--all", "Include runs that ended.").alias("-a");
  private static final Option DRY_RUN = Option.flag("--dry-run", "Start nothing.");
  private static final Option SECRET = Option.flag("--inside", "For Berth alone.").hidden();
  private static final Option ON_EXIT = Option.value("--on-exit", "ask|cancel|leave", "On Slurm, what Ctrl-C does to"
      + " submitted jobs: ask (on a terminal), cancel them, or leave them running for berth resume.");

  private static final CommandSyntax SYNTAX = CommandSyntax.describedAs("Run every task of a spec within the"
      + " machine's limits and write report.json, which is a description long enough to be wrapped.")
      .parameter(Parameter.required("SPEC", "The run spec (YAML)."))
      .parameter(Parameter.rest("TASK", "Task ids."))
      .options(CONFIG, SET, SERVE, ALL, DRY_RUN, SECRET, ON_EXIT)
      .build();

  @Test
  void theHelpIsTheSynopsisThenTheDescriptionThenEachParameterAndOptionByName() {
    assertThat(Usage.of("berth run", SYNTAX)).isEqualTo("""
        Usage: berth run [-ahV] [--dry-run] [--config=FILE] [--on-exit=ask|cancel|leave]
                         [--serve[=PORT]] [--set=KEY=VALUE]... SPEC [TASK...]

        Run every task of a spec within the machine's limits and write report.json,
        which is a description long enough to be wrapped.

              SPEC                    The run spec (YAML).
              [TASK...]               Task ids.
          -a, --all                   Include runs that ended.
              --config=FILE           Config file (default: ./config.yaml when it
                                      exists).
              --dry-run               Start nothing.
          -h, --help                  Show this help message and exit.
              --on-exit=ask|cancel|leave
                                      On Slurm, what Ctrl-C does to submitted jobs: ask
                                      (on a terminal), cancel them, or leave them
                                      running for berth resume.
              --serve[=PORT]          Serve a dashboard.
              --set=KEY=VALUE         Override one config key.
          -V, --version               Print version information and exit.
        """);
  }

  @Test
  void aHiddenOptionIsLeftOutOfTheHelp() {
    assertThat(Usage.of("berth run", SYNTAX)).doesNotContain("--inside");
  }

  @Test
  void aChoiceIsShownAsOneItemOfTheSynopsis() {
    CommandSyntax config = CommandSyntax.describedAs("Config.")
        .oneOf(Option.flag("--defaults", "Defaults."), Option.value("--effective", "SPEC", "Effective.")).build();

    assertThat(Usage.synopsis("berth config", config))
        .isEqualTo("Usage: berth config [-hV] (--defaults | --effective=SPEC)\n");
  }

  @Test
  void anOptionalParameterIsInBrackets() {
    CommandSyntax status = CommandSyntax.describedAs("Status.")
        .parameter(Parameter.optional("WORKDIR", "The run's workdir.")).build();

    assertThat(Usage.synopsis("berth status", status)).isEqualTo("Usage: berth status [-hV] [WORKDIR]\n");
    assertThat(Usage.of("berth status", status)).contains("\n      [WORKDIR]   The run's workdir.\n");
  }

  @Test
  void noLineOfTheHelpIsWiderThanEightyColumns() {
    assertThat(Usage.of("berth run", SYNTAX).lines()).allSatisfy(line -> assertThat(line).hasSizeLessThanOrEqualTo(80));
  }
}
