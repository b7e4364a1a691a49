package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import java.io.PrintWriter;

/**
 * One command of {@code berth} ({@code run}, {@code status}, ...): what it accepts and what it does.
 * A command may throw {@link dev.berth.cli.args.BadUsage} for a value it refuses: that is reported as
 * any mistake on the command line is, in one line with exit code 2.
 */
interface BerthCommand {

  /** What the command accepts; built only for the command asked for. */
  CommandSyntax syntax();

  /**
   * Does the command's work with the arguments read against {@link #syntax()}.
   *
   * @return the exit code, one of {@link ExitCodes}
   */
  int run(Arguments args, PrintWriter out, PrintWriter err) throws Exception;
}
