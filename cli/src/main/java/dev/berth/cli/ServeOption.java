package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.serve.DashboardServer;
import dev.berth.serve.LedgerCatalog;
import dev.berth.serve.OneRunCatalog;
import dev.berth.serve.RunActions;
import dev.berth.serve.ServeToken;
import dev.berth.session.HostRuns;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.time.Clock;
import java.util.Optional;

/** {@code --serve[=PORT]} of {@code berth run}: the dashboard of just this run, on loopback, while it lives. */
final class ServeOption {

  private static final String PORT_UNLESS_GIVEN = "8765";

  static final Option SERVE = Option.value("--serve", "PORT",
      "Serve a live dashboard of this run on 127.0.0.1 while it runs (port " + PORT_UNLESS_GIVEN + " unless given;"
          + " 0 for any free one); prints the link with its token (docs/api.md). Needs the host ledger.")
      .optionalValue(PORT_UNLESS_GIVEN).integer();

  private final Integer port;

  /** The choice on the command line: no dashboard when {@code --serve} is not given. */
  ServeOption(Arguments args) {
    this.port = args.integer(SERVE);
  }

  /** Declares the option in a command's syntax. */
  static void declare(CommandSyntax.Builder syntax) {
    syntax.options(SERVE);
  }

  /** Whether the choice is valid with the host ledger choice; when not, says why on {@code err}. */
  boolean valid(PrintWriter err, boolean hostLedger) {
    if (port == null) {
      return true;
    }
    if (port < 0 || port > 65535) {
      err.println("berth: --serve: the port must be 0 to 65535, not " + port);
      return false;
    }
    if (!hostLedger) {
      err.println("berth: --serve: needs the host ledger (drop --host-ledger off)");
      return false;
    }
    return true;
  }

  /** Starts the dashboard when asked, printing its link on {@code err}; empty when not asked. */
  Optional<DashboardServer> start(PrintWriter err) throws Exception {
    if (port == null) {
      return Optional.empty();
    }
    ServeToken token = ServeToken.generate();
    LedgerCatalog all = new LedgerCatalog(HostRuns.folder(System::getenv), Clock.systemUTC());
    DashboardServer server = DashboardServer.start(new OneRunCatalog(all, ProcessHandle.current().pid()),
        new RunActions(err::println), token, InetAddress.getLoopbackAddress(), port, false, Clock.systemUTC());
    try { // only once it listens: a dashboard that could not start leaves the token of the one that did
      token.writeTo(ServeToken.defaultFile(System::getenv));
    } catch (IOException e) {
      stop(server);
      throw e;
    }
    err.println("berth: dashboard of this run: " + server.link());
    err.flush();
    return Optional.of(server);
  }

  /** Stops a dashboard, as the run ends. */
  static void stop(DashboardServer server) {
    try {
      server.close();
    } catch (Exception e) {
      // the run has ended; a dashboard that does not stop cleanly ends with the process
    }
  }
}
