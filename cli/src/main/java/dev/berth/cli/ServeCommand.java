package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.serve.DashboardServer;
import dev.berth.serve.LedgerCatalog;
import dev.berth.serve.RunActions;
import dev.berth.serve.ServeToken;
import dev.berth.session.HostRuns;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;

/** {@code berth serve}: the live dashboard and HTTP API over every Berth run on this host. */
final class ServeCommand implements BerthCommand {

  private static final String DEFAULT_PORT = "8765";

  private static final String DEFAULT_BIND = "127.0.0.1";

  private static final Option PORT = Option.value("--port", "N",
      "The port (default: " + DEFAULT_PORT + "; 0 for any free one).").integer().defaultValue(DEFAULT_PORT);

  private static final Option BIND = Option.value("--bind", "ADDR",
      "The address to listen on (default: " + DEFAULT_BIND + ").").defaultValue(DEFAULT_BIND);

  private static final Option PUBLIC_READ = Option.flag("--public-read",
      "Let anyone who can reach the address read without the token; cancel and retry still need it.");

  private static final Option TOKEN_FILE =
      Option.value("--token-file", "FILE", "Where to write the token once listening (default: ~/.berth/serve-token,"
          + " in $HOME).");

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("Serve a live dashboard and JSON API (docs/api.md) over every Berth run on"
        + " this host, on loopback, guarded by a token it makes at start, writes to a file only you can read, and"
        + " prints as a link. Stays up across runs; Ctrl-C stops it.")
        .options(PORT, BIND, PUBLIC_READ, TOKEN_FILE).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws Exception {
    int port = args.integer(PORT);
    String bind = args.value(BIND);
    boolean publicRead = args.flag(PUBLIC_READ);
    Path tokenFile = args.path(TOKEN_FILE);
    if (port < 0 || port > 65535) {
      err.println("berth: serve: --port: must be 0 to 65535, not " + port);
      return ExitCodes.BAD_INPUT;
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      err.println("berth: serve: --bind: not an address of this host: " + bind);
      return ExitCodes.BAD_INPUT;
    }
    ServeToken token = ServeToken.generate();
    Path file = tokenFile != null ? tokenFile : ServeToken.defaultFile(System::getenv);
    LedgerCatalog catalog = new LedgerCatalog(HostRuns.folder(System::getenv), Clock.systemUTC());
    RunActions actions = new RunActions(line -> { // what retries started from the dashboard do
      err.println("berth: " + line);
      err.flush();
    });
    DashboardServer started;
    try {
      started = DashboardServer.start(catalog, actions, token, address, port, publicRead, Clock.systemUTC());
    } catch (DashboardServer.CannotListen e) {
      err.println("berth: serve: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    try (DashboardServer server = started) {
      try { // only now: a server that could not listen leaves the token of the one that does
        token.writeTo(file);
      } catch (IOException e) {
        err.println("berth: serve: cannot write the token to " + file + ": " + e.getMessage());
        return ExitCodes.BAD_INPUT;
      }
      if (!address.isLoopbackAddress()) {
        err.println("berth: serve: listening on " + bind + ", reachable beyond this machine; the token guards it");
      }
      out.println(server.link());
      out.flush();
      server.join();
    }
    return ExitCodes.OK;
  }
}
