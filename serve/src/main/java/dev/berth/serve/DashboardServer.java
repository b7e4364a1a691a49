package dev.berth.serve;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.URI;
import java.time.InstantSource;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The dashboard and its API on an embedded Jetty: bound to loopback unless told otherwise, guarded by
 * a token, showing the runs of a catalog (every run on the host, or one run).
 */
public final class DashboardServer implements AutoCloseable {

  private final Server server;
  private final ServerConnector connector;
  private final DashboardHandler handler;
  private final ServeToken token;
  private final RunActions actions;
  private final RunCatalog catalog;

  private DashboardServer(Server server, ServerConnector connector, DashboardHandler handler, ServeToken token,
      RunActions actions, RunCatalog catalog) {
    this.actions = actions;
    this.catalog = catalog;
    this.server = server;
    this.connector = connector;
    this.handler = handler;
    this.token = token;
  }

  /**
   * Starts serving.
   *
   * @param bind the address to listen on, normally loopback
   * @param port the port, 0 for any free one
   * @param catalog the runs it shows; the server owns it and closes it as it stops
   * @param actions what POSTs do; the server owns them and closes them as it stops
   * @param publicRead whether reads (pages, GETs) are open without the token; changes never are
   */
  public static DashboardServer start(RunCatalog catalog, RunActions actions, ServeToken token, InetAddress bind,
      int port, boolean publicRead, InstantSource clock) throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(64, 2);
    threads.setName("berth-serve");
    threads.setDaemon(true);
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(bind.getHostAddress());
    connector.setPort(port);
    server.addConnector(connector);
    DashboardHandler handler = new DashboardHandler(catalog, new Access(token, publicRead), new HostNames(bind),
        new RunApi(clock), actions);
    server.setHandler(handler);
    server.setStopTimeout(2000);
    try {
      server.start();
    } catch (Exception e) {
      try {
        server.stop();
      } finally {
        actions.close();
        catalog.close();
      }
      throw cannotListen(e, bind, port).orElseThrow(() -> e);
    }
    return new DashboardServer(server, connector, handler, token, actions, catalog);
  }

  /**
   * The address cannot be listened on: the port is taken (by another {@code berth serve}, often), or
   * the address is not this machine's. Its message names the address and port.
   */
  public static final class CannotListen extends IOException {
    private static final long serialVersionUID = 1L;

    CannotListen(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static Optional<Exception> cannotListen(Exception failure, InetAddress bind, int port) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BindException bindFailure) {
        String where = (bind.getHostAddress().contains(":") ? "[" + bind.getHostAddress() + "]"
            : bind.getHostAddress()) + ":" + port;
        String why = String.valueOf(bindFailure.getMessage()).toLowerCase(Locale.ROOT).contains("in use")
            ? "port " + port + " is busy (another berth serve?; --port 0 takes any free one)"
            : bindFailure.getMessage();
        return Optional.of(new CannotListen("cannot listen on " + where + ": " + why, failure));
      }
    }
    return Optional.empty();
  }

  /** The port it listens on. */
  public int port() {
    return connector.getLocalPort();
  }

  /** The dashboard's address, without the token. */
  public URI uri() {
    String host = connector.getHost();
    String shown = host.contains(":") ? "[" + host + "]" : host;
    return URI.create("http://" + shown + ":" + port() + "/");
  }

  /** The link that opens the dashboard: the address with {@code ?token=}. */
  public URI link() {
    return uri().resolve("/?token=" + token.value());
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    server.join();
  }

  /** Stops serving, ending open event streams, and interrupts the retries it started. */
  @Override
  public void close() throws Exception {
    handler.closeStreams();
    try {
      server.stop();
    } finally {
      actions.close();
      catalog.close();
    }
  }
}
