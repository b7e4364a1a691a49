package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import java.io.PrintWriter;
import java.util.Optional;

/** {@code --host-ledger on|off}, shared by {@code run}, {@code resume} and {@code retry}: a setting of the session only. */
final class HostLedgerOption {

  static final Option HOST_LEDGER = Option.value("--host-ledger", "on|off",
      "Whether the run shares the host ledger with every other Berth run on this machine (on, the"
          + " default: other runs' reservations are not free to it and waiting tasks queue host-wide), or is alone.")
      .defaultValue("on");

  private final String hostLedger;
  private final Optional<String> problem;

  /** The choice on the command line, {@code on} when none. */
  HostLedgerOption(Arguments args) {
    this.hostLedger = args.value(HOST_LEDGER);
    this.problem = args.notAChoice(HOST_LEDGER);
  }

  /** Declares the option in a command's syntax. */
  static void declare(CommandSyntax.Builder syntax) {
    syntax.options(HOST_LEDGER);
  }

  /** Whether the choice is valid; when not, says why on {@code err}. */
  boolean valid(PrintWriter err) {
    problem.ifPresent(p -> err.println("berth: " + p));
    return problem.isEmpty();
  }

  /** Whether the run takes part. */
  boolean shared() {
    return hostLedger.equals("on");
  }
}
