package dev.berth.cli;

import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.HelpColumns;
import dev.berth.cli.args.Usage;
import java.util.List;

/** What {@code berth --help} prints: the synopsis, every command with what it does, and the exit codes. */
final class BerthHelp {

  private BerthHelp() {}

  /** The help of {@code berth} itself. */
  static String usage() {
    StringBuilder text = new StringBuilder(
        Usage.header(HelpColumns.hanging("Usage: berth", List.of("[-hV]", "COMMAND")), Main.DESCRIPTION));
    text.append(Usage.table(List.of(), List.of(CommandSyntax.HELP, CommandSyntax.VERSION))).append("\nCommands:\n");
    HelpColumns commands = new HelpColumns();
    Commands.NAMES.forEach(name -> commands.row("  " + name, Commands.named(name).syntax().description()));
    text.append(commands.render()).append("\nExit codes (docs/exit-codes.md):\n");
    HelpColumns codes = new HelpColumns();
    Main.exitCodeList().forEach((code, meaning) -> codes.row("  " + code, meaning));
    return text.append(codes.render()).toString();
  }
}
