package dev.berth.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** {@code --host-ledger on|off}, shared by {@code run}, {@code resume} and {@code retry}: a setting of the session only. */
final class HostLedgerOption {

  @Option(names = "--host-ledger", paramLabel = "on|off",
      description = "Whether the run shares the host ledger with every other Berth run on this machine (on, the"
          + " default: other runs' reservations are not free to it and waiting tasks queue host-wide), or is alone.")
  String hostLedger = "on";

  /** Whether the choice is valid; when not, says why on {@code err}. */
  boolean valid(PrintWriter err) {
    if (hostLedger.equals("on") || hostLedger.equals("off")) {
      return true;
    }
    err.println("berth: --host-ledger must be on or off, not " + hostLedger);
    return false;
  }

  /** Whether the run takes part. */
  boolean shared() {
    return hostLedger.equals("on");
  }
}
