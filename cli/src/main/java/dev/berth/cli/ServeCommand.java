package dev.berth.cli;

import dev.berth.host.HostLedgers;
import dev.berth.serve.DashboardServer;
import dev.berth.serve.LedgerCatalog;
import dev.berth.serve.RunActions;
import dev.berth.serve.ServeToken;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code berth serve}: the live dashboard and HTTP API over every Berth run on this host. */
@Command(name = "serve", description = "Serve a live dashboard and JSON API (docs/api.md) over every Berth run on"
    + " this host, on loopback, guarded by a token it makes at start, writes to a file only you can read, and prints"
    + " as a link. Stays up across runs; Ctrl-C stops it.")
final class ServeCommand implements Callable<Integer> {

  @Option(names = "--port", paramLabel = "N", description = "The port (default: ${DEFAULT-VALUE}; 0 for any free one).")
  int port = 8765;

  @Option(names = "--bind", paramLabel = "ADDR", description = "The address to listen on (default: ${DEFAULT-VALUE}).")
  String bind = "127.0.0.1";

  @Option(names = "--public-read", description = "Let anyone who can reach the address read without the token;"
      + " cancel and retry still need it.")
  boolean publicRead;

  @Option(names = "--token-file", paramLabel = "FILE", description = "Where to write the token (default: ~/.berth/serve-token).")
  Path tokenFile;

  @Spec CommandSpec command;

  @Override
  public Integer call() throws Exception {
    var err = command.commandLine().getErr();
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
    Path file = tokenFile != null ? tokenFile : ServeToken.defaultFile();
    try {
      token.writeTo(file);
    } catch (IOException e) {
      err.println("berth: serve: cannot write the token to " + file + ": " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    LedgerCatalog catalog = new LedgerCatalog(HostLedgers.directory(System::getenv), Clock.systemUTC());
    RunActions actions = new RunActions(line -> { // what retries started from the dashboard do
      err.println("berth: " + line);
      err.flush();
    });
    try (DashboardServer server = DashboardServer.start(catalog, actions, token, address, port, publicRead,
        Clock.systemUTC())) {
      if (!address.isLoopbackAddress()) {
        err.println("berth: serve: listening on " + bind + ", reachable beyond this machine; the token guards it");
      }
      command.commandLine().getOut().println(server.link());
      command.commandLine().getOut().flush();
      server.join();
    }
    return ExitCodes.OK;
  }
}
