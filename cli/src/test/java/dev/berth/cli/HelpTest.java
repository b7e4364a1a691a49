package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class HelpTest {

  @ParameterizedTest
  @ValueSource(strings = {"run", "resume", "status", "report", "validate", "cancel", "devices", "config"})
  void everyCommandPrintsItsUsageForHelpAndExitsZero(String command) {
    for (String flag : new String[] {"--help", "-h"}) {
      CliRunner help = CliRunner.berth(command, flag);

      assertThat(help.exitCode).as(command + " " + flag + ": " + help.err).isZero();
      assertThat(help.out).startsWith("Usage: berth " + command);
      assertThat(help.err).isEmpty();
    }
  }

  @Test
  void helpForACommandAndAMisspelledCommandStillKnowEveryCommand() {
    CliRunner help = CliRunner.berth("help", "retry");
    CliRunner typo = CliRunner.berth("rnu", "spec.yaml");

    assertThat(help.exitCode).isZero();
    assertThat(help.out).startsWith("Usage: berth retry");
    assertThat(typo.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(typo.err).contains("unknown command 'rnu'").contains("Did you mean: run?");
  }

  @Test
  void bareBerthListsEveryCommandAndExitsTwo() {
    CliRunner bare = CliRunner.berth();

    assertThat(bare.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(bare.err).contains("run", "resume", "status", "report", "validate", "cancel", "devices", "config", "help")
        .contains("a command is required");
  }
}
