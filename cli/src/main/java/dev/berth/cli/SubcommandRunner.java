package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.BadUsage;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Parser;
import dev.berth.cli.args.Usage;
import java.io.PrintWriter;
import java.util.Optional;

/**
 * Runs one subcommand of {@code berth} on its arguments: its help or the version when asked for;
 * a mistake on the command line as one line on stderr with exit code 2, nothing started; a failure
 * of the command as one line when the file system caused it, else with its stack trace, exit code 3.
 */
final class SubcommandRunner {

  private SubcommandRunner() {}

  /**
   * Runs {@code command}, called {@code name}, on {@code args} from index {@code from} on.
   *
   * @return the exit code
   */
  static int run(String name, BerthCommand command, String[] args, int from, PrintWriter out, PrintWriter err) {
    CommandSyntax syntax = command.syntax();
    try {
      Arguments parsed = Parser.parse(syntax, args, from);
      if (parsed.helpAsked()) {
        out.print(Usage.of("berth " + name, syntax));
        return ExitCodes.OK;
      }
      if (parsed.versionAsked()) {
        out.println(Main.version());
        return ExitCodes.OK;
      }
      return command.run(parsed, out, err);
    } catch (BadUsage e) {
      err.println("berth: " + e.getMessage() + " (see berth " + name + " --help)");
      return ExitCodes.BAD_INPUT;
    } catch (Exception e) {
      Optional<String> fileTrouble = FileTrouble.describe(e);
      if (fileTrouble.isPresent()) {
        err.println("berth: " + fileTrouble.get());
        return ExitCodes.INTERNAL;
      }
      err.println("berth: internal error: " + e);
      e.printStackTrace(err);
      return ExitCodes.INTERNAL;
    } finally {
      out.flush();
      err.flush();
    }
  }
}
