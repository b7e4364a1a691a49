package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.BadUsage;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Parameter;
import dev.berth.cli.args.Usage;
import java.io.PrintWriter;

/** {@code berth help [COMMAND]}: the help of {@code berth}, or of one command. */
final class HelpCommand implements BerthCommand {

  private static final Parameter COMMAND = Parameter.optional("COMMAND", "The command to show the help of.");

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("Show the help of berth, or of one COMMAND.").parameter(COMMAND).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) {
    String name = args.value(COMMAND);
    if (name == null) {
      out.print(BerthHelp.usage());
      return ExitCodes.OK;
    }
    BerthCommand command = Commands.named(name);
    if (command == null) {
      throw new BadUsage("Unknown command: '" + name + "'" + Main.didYouMean(name));
    }
    out.print(Usage.of("berth " + name, command.syntax()));
    return ExitCodes.OK;
  }
}
