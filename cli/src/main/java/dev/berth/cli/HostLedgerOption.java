package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;

/** {@code --host-ledger on|off}, shared by {@code run}, {@code resume} and {@code retry}: a setting of the session only. */
final class HostLedgerOption {

  static final Option HOST_LEDGER = Option.value("--host-ledger", "on|off",
      "Whether the run shares the host ledger with every other Berth run on this machine (on, the"
          + " default: other runs' reservations are not free to it and waiting tasks queue host-wide), or is alone.")
      .defaultValue("on");

  private final String hostLedger;

  /** The choice on the command line, {@code on} when none; checked by {@link CommonArgs#choicesValid}. */
  HostLedgerOption(Arguments args) {
    this.hostLedger = args.value(HOST_LEDGER);
  }

  /** Declares the option in a command's syntax. */
  static void declare(CommandSyntax.Builder syntax) {
    syntax.options(HOST_LEDGER);
  }

  /** Whether the run takes part. */
  boolean shared() {
    return hostLedger.equals("on");
  }
}
