package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.BadUsage;
import dev.berth.cli.args.CommandSyntax;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.AccessDeniedException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** How {@code berth} reads its command line: help, version, and one line with exit code 2 for any mistake. */
class CommandLineTest {

  static final List<String> NAMES = Commands.NAMES;

  @ParameterizedTest
  @FieldSource("NAMES")
  void everyListedCommandIsMadeAndItsHelpIsItsUsageWithinEightyColumns(String name) {
    CliRunner help = CliRunner.berth(name, "--help");

    assertThat(Commands.named(name)).isNotNull();
    assertThat(help.exitCode).isZero();
    assertThat(help.out).startsWith("Usage: berth " + name + " ");
    assertThat(help.out.lines()).allSatisfy(line -> assertThat(line).hasSizeLessThanOrEqualTo(80));
    assertThat(help.err).isEmpty();
  }

  @Test
  void helpAsACommandAndAsAnOptionPrintTheSameUsage() {
    assertThat(CliRunner.berth("help", "status").out).isEqualTo(CliRunner.berth("status", "-h").out);
    assertThat(CliRunner.berth("help").out).isEqualTo(CliRunner.berth("--help").out)
        .isEqualTo(CliRunner.berth("-h").out);
  }

  @Test
  void berthsHelpListsEveryCommandWithItsDescriptionAndTheExitCodes() {
    CliRunner help = CliRunner.berth("--help");

    assertThat(help.exitCode).isZero();
    assertThat(help.out).startsWith("Usage: berth [-hV] COMMAND\n")
        .contains("\nCommands:\n")
        .contains("\n  validate     Check a spec and print the expanded task list; starts nothing.\n")
        .contains("\nExit codes (docs/exit-codes.md):\n  0     every task succeeded");
    for (String name : Commands.NAMES) {
      assertThat(help.out).containsPattern("\n  " + name + " +\\S");
    }
  }

  @Test
  void theHelpOfACommandListsTheOptionsItSharesWithOthers() {
    String run = CliRunner.berth("run", "--help").out;
    String resume = CliRunner.berth("resume", "--help").out;
    String retry = CliRunner.berth("retry", "--help").out;
    String config = CliRunner.berth("config", "--help").out;

    assertThat(run).contains("SPEC", "--config=FILE", "--workdir=DIR", "--set=KEY=VALUE", "--no-progress",
        "--on-exit=ask|cancel|leave", "--host-ledger=on|off", "--serve[=PORT]");
    for (String stored : new String[] {resume, retry}) {
      assertThat(stored).contains("WORKDIR", "--no-progress", "--on-exit=ask|cancel|leave", "--host-ledger=on|off")
          .doesNotContain("--serve");
    }
    assertThat(config).contains("--config=FILE", "--set=KEY=VALUE", "(--defaults | --effective=SPEC)");
    assertThat(resume).doesNotContain("--inside-allocation");
  }

  @Test
  void versionIsPrintedForBerthAndForEveryCommand() {
    for (String[] args : new String[][] {{"--version"}, {"-V"}, {"run", "-V"}, {"ps", "--version"}}) {
      CliRunner version = CliRunner.berth(args);

      assertThat(version.exitCode).isZero();
      assertThat(version.out).isEqualTo(Main.version() + "\n").startsWith("berth ");
    }
  }

  @Test
  void anUnknownOptionIsOneLineAndExitCodeTwo() {
    CliRunner run = CliRunner.berth("validate", "--x", "spec.yaml");

    assertThat(run.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.out).isEmpty();
    assertThat(run.err).isEqualTo("berth: Unknown option: '--x' (see berth validate --help)\n");
  }

  @Test
  void aMissingOptionValueIsOneLineAndExitCodeTwo() {
    CliRunner run = CliRunner.berth("run", "spec.yaml", "--config");

    assertThat(run.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err)
        .isEqualTo("berth: Missing required parameter for option '--config' (FILE) (see berth run --help)\n");
  }

  @Test
  void aMissingPositionalParameterIsOneLineAndExitCodeTwo() {
    CliRunner run = CliRunner.berth("run", "--no-progress");

    assertThat(run.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(run.err).isEqualTo("berth: Missing required parameter: 'SPEC' (see berth run --help)\n");
  }

  @Test
  void anExtraArgumentIsUnmatchedAtItsIndexOnTheCommandLine() {
    CliRunner status = CliRunner.berth("status", "a", "b");

    assertThat(status.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(status.err).isEqualTo("berth: Unmatched argument at index 2: 'b' (see berth status --help)\n");
  }

  @Test
  void aNumberOptionGivenTextIsOneLineAndExitCodeTwo() {
    CliRunner serve = CliRunner.berth("serve", "--port", "abc");

    assertThat(serve.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(serve.err)
        .isEqualTo("berth: Invalid value for option '--port': 'abc' is not an int (see berth serve --help)\n");
  }

  @Test
  void aMistypedCommandIsAnUnknownCommandAndTheNearestCommandIsSuggested() {
    CliRunner typo = CliRunner.berth("rnu");
    CliRunner start = CliRunner.berth("dev");
    CliRunner far = CliRunner.berth("xyz");

    assertThat(typo.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(typo.err)
        .isEqualTo("berth: unknown command 'rnu'. Did you mean: run? (see berth --help)\n");
    assertThat(start.err).contains("Did you mean: devices?");
    assertThat(far.err).isEqualTo("berth: unknown command 'xyz' (see berth --help)\n");
  }

  @Test
  void anUnknownOptionBeforeAnyCommandIsOneLine() {
    CliRunner unknown = CliRunner.berth("--verbose", "run");

    assertThat(unknown.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(unknown.err).isEqualTo("berth: Unknown option: '--verbose' (see berth --help)\n");
  }

  @Test
  void helpForAnUnknownCommandIsOneLineAndExitCodeTwo() {
    CliRunner help = CliRunner.berth("help", "stauts");

    assertThat(help.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(help.err).isEqualTo("berth: Unknown command: 'stauts'. Did you mean: status? (see berth help --help)\n");
  }

  @Test
  void bareBerthPrintsTheUsageOnStderrOnly() {
    CliRunner bare = CliRunner.berth();

    assertThat(bare.exitCode).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(bare.out).isEmpty();
    assertThat(bare.err).startsWith("Usage: berth [-hV] COMMAND\n")
        .endsWith("\nberth: a command is required (see berth --help)\n");
  }

  @Test
  void aBadUsageACommandFindsIsOneLineAndExitCodeTwo() {
    Outcome outcome = Outcome.of(command(new BadUsage("--level must be low or high, not medium")));

    assertThat(outcome.code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(outcome.err).isEqualTo("berth: --level must be low or high, not medium (see berth probe --help)\n");
  }

  @Test
  void aFileSystemFailureIsOneLineAndExitCodeThree() {
    Outcome outcome = Outcome.of(command(new AccessDeniedException("/runs/a")));

    assertThat(outcome.code).isEqualTo(ExitCodes.INTERNAL);
    assertThat(outcome.err).isEqualTo("berth: /runs/a: permission denied\n");
  }

  @Test
  void anyOtherFailureIsAnInternalErrorWithItsStackTrace() {
    Outcome outcome = Outcome.of(command(new IllegalStateException("a bug")));

    assertThat(outcome.code).isEqualTo(ExitCodes.INTERNAL);
    assertThat(outcome.err).startsWith("berth: internal error: java.lang.IllegalStateException: a bug\n")
        .contains("\tat dev.berth.cli.CommandLineTest");
  }

  private static BerthCommand command(Exception failure) {
    return new BerthCommand() {
      @Override
      public CommandSyntax syntax() {
        return CommandSyntax.describedAs("Fails.").build();
      }

      @Override
      public int run(Arguments args, PrintWriter out, PrintWriter err) throws Exception {
        throw failure;
      }
    };
  }

  private record Outcome(int code, String err) {
    static Outcome of(BerthCommand command) {
      StringWriter err = new StringWriter();
      int code = SubcommandRunner.run("probe", command, new String[0], 0, new PrintWriter(new StringWriter()),
          new PrintWriter(err));
      return new Outcome(code, err.toString());
    }
  }
}
