package dev.berth.runtime.control.channel;

import dev.berth.core.model.TaskId;
import dev.berth.protocol.ControlCodec;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.ControlProtocolException;
import dev.berth.protocol.LineChannel;
import dev.berth.protocol.TaskMessage;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Berth's end of the control channel: a Unix domain socket that task processes connect to. Each
 * task attempt is {@linkplain #register registered} with a fresh token before it starts; its
 * connection is accepted once it says hello with that token. Commands to a task that has not
 * connected yet wait for its hello. Nothing here throws into Berth once the socket is open:
 * rejected connections and malformed lines are reported to {@link ControlListener#problem} and
 * the offending connection is closed; when the offender is a registered attempt (a malformed line
 * after its hello, a second connection), {@link ControlListener#broken} says so too. One acceptor
 * thread and one reader thread per connection, all daemons. Thread-safe.
 */
public final class ControlServer implements ControlPort {

  private final Path socketPath;
  private final ServerSocketChannel server;
  private final ControlListener listener;
  private final SecureRandom random = new SecureRandom();
  private final AtomicInteger readerCount = new AtomicInteger();

  private final Object lock = new Object();
  private final Map<TaskId, Registration> registrations = new HashMap<>();
  private final Set<Connection> connections = new HashSet<>();
  private boolean closed;

  /** One attempt's token and its commands waiting for the hello; guarded by {@link #lock}. */
  private static final class Registration {
    final int attempt;
    final String token;
    final List<String> pending = new ArrayList<>();
    Connection connection;

    Registration(int attempt, String token) {
      this.attempt = attempt;
      this.token = token;
    }
  }

  /** One accepted socket; its task fields are set under {@link #lock} when its hello is accepted. */
  private static final class Connection {
    final LineChannel lines;
    TaskId task;
    Registration registration;
    boolean silent;

    Connection(SocketChannel channel) {
      this.lines = new LineChannel(channel);
    }
  }

  private ControlServer(Path socketPath, ServerSocketChannel server, ControlListener listener) {
    this.socketPath = socketPath;
    this.server = server;
    this.listener = listener;
  }

  /**
   * Binds the socket at {@code socketPath} (replacing a stale socket file a crashed run left
   * behind) and starts accepting connections.
   *
   * @throws IOException when the socket cannot be bound
   */
  public static ControlServer open(Path socketPath, ControlListener listener) throws IOException {
    Files.deleteIfExists(socketPath);
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      server.bind(UnixDomainSocketAddress.of(socketPath));
    } catch (IOException e) {
      server.close();
      throw new IOException("cannot open the control socket " + socketPath + ": " + e.getMessage(), e);
    }
    restrictToOwner(socketPath);
    ControlServer control = new ControlServer(socketPath, server, listener);
    Thread acceptor = new Thread(control::accept, "berth-control-acceptor");
    acceptor.setDaemon(true);
    acceptor.start();
    return control;
  }

  private static void restrictToOwner(Path socketPath) {
    try {
      Files.setPosixFilePermissions(socketPath, PosixFilePermissions.fromString("rw-------"));
    } catch (IOException | UnsupportedOperationException e) {
      // the token still guards the channel; the permissions only keep other users from knocking
    }
  }

  @Override
  public Path socketPath() {
    return socketPath;
  }

  /**
   * Registers an attempt of a task and returns its token (32 hex digits), for the task's
   * {@code BERTH_TOKEN}. A previous registration of the task is replaced and its connection closed
   * without a {@code disconnected} report.
   */
  @Override
  public String register(TaskId task, int attempt) {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    String token = HexFormat.of().formatHex(bytes);
    Registration previous;
    synchronized (lock) {
      previous = registrations.put(task, new Registration(attempt, token));
    }
    drop(previous);
    return token;
  }

  /**
   * Sends a command to a task. Before the task's hello the command waits, in order, for it; for a
   * task that is not registered, or whose connection has ended, it is dropped.
   */
  @Override
  public void send(TaskId task, ControlCommand command) {
    String line = ControlCodec.encode(command);
    Connection connection;
    synchronized (lock) {
      Registration r = registrations.get(task);
      if (r == null) {
        connection = null;
      } else if (r.connection == null) {
        r.pending.add(line);
        return;
      } else {
        connection = r.connection;
      }
    }
    if (connection == null) {
      problem("control channel: dropped " + line + " for " + task + ", which is not registered");
      return;
    }
    try {
      connection.lines.writeLine(line);
    } catch (IOException e) {
      // the task is gone; its reader reports the disconnection
      connection.lines.close();
    }
  }

  /**
   * Forgets a task: drops its registration and pending commands and closes its connection, without
   * a {@code disconnected} report.
   */
  @Override
  public void forget(TaskId task) {
    Registration r;
    synchronized (lock) {
      r = registrations.remove(task);
    }
    drop(r);
  }

  @Override
  public boolean isConnected(TaskId task) {
    synchronized (lock) {
      Registration r = registrations.get(task);
      return r != null && r.connection != null && connections.contains(r.connection);
    }
  }

  private void drop(Registration r) {
    if (r == null) {
      return;
    }
    Connection c;
    synchronized (lock) {
      c = r.connection;
      if (c != null) {
        c.silent = true;
      }
    }
    if (c != null) {
      c.lines.close();
    }
  }

  /** Closes every connection and the socket, and deletes the socket file. */
  @Override
  public void close() {
    List<Connection> open;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      registrations.clear();
      open = new ArrayList<>(connections);
      open.forEach(c -> c.silent = true);
    }
    try {
      server.close();
    } catch (IOException e) {
      problem("control channel: cannot close " + socketPath + ": " + e.getMessage());
    }
    open.forEach(c -> c.lines.close());
    try {
      Files.deleteIfExists(socketPath);
    } catch (IOException e) {
      problem("control channel: cannot delete " + socketPath + ": " + e.getMessage());
    }
  }

  private void accept() {
    while (true) {
      SocketChannel channel;
      try {
        channel = server.accept();
      } catch (IOException e) {
        if (!server.isOpen()) {
          return;
        }
        problem("control channel: accept failed: " + e.getMessage());
        continue;
      }
      Connection c = new Connection(channel);
      synchronized (lock) {
        if (closed) {
          c.lines.close();
          return;
        }
        connections.add(c);
      }
      Thread reader = new Thread(() -> read(c), "berth-control-reader-" + readerCount.incrementAndGet());
      reader.setDaemon(true);
      reader.start();
    }
  }

  private void read(Connection c) {
    try {
      String first = c.lines.readLine();
      if (first == null || !welcome(c, first)) {
        return;
      }
      while (true) {
        String line = c.lines.readLine();
        if (line == null) {
          return;
        }
        TaskMessage message;
        try {
          message = ControlCodec.decode(line);
        } catch (ControlProtocolException e) {
          problem("control channel: " + c.task + " sent a malformed line (" + e.getMessage() + "): "
              + abbreviate(line) + "; connection closed");
          broken(c.task, c.registration.attempt, "sent a malformed line (" + e.getMessage() + ")");
          return;
        }
        deliver(c, message);
      }
    } catch (LineChannel.LineTooLongException e) {
      problem("control channel: " + (c.task == null ? "a connection" : c.task) + " sent " + e.getMessage()
          + "; connection closed");
      if (c.task != null) {
        broken(c.task, c.registration.attempt, "sent " + e.getMessage());
      }
    } catch (IOException e) {
      // closed by Berth, or the task's end went away: both end the connection below
    } finally {
      c.lines.close();
      ended(c);
    }
  }

  private boolean welcome(Connection c, String line) throws IOException {
    ControlCodec.HelloLine hello;
    TaskId task;
    try {
      hello = ControlCodec.decodeHello(line);
      task = TaskId.of(hello.task());
    } catch (ControlProtocolException | IllegalArgumentException e) {
      problem("control channel: rejected a connection whose first line is not a valid hello (" + e.getMessage()
          + "): " + abbreviate(line));
      return false;
    }
    if (hello.protocol() != ControlCodec.PROTOCOL) {
      problem("control channel: rejected " + task + ", which speaks protocol " + hello.protocol()
          + " where Berth speaks " + ControlCodec.PROTOCOL);
      return false;
    }
    String[] rejection = new String[1];
    int[] connectedTwice = {0};
    c.lines.writeLines(() -> {
      synchronized (lock) {
        Registration r = registrations.get(task);
        if (closed) {
          rejection[0] = "";
        } else if (r == null) {
          rejection[0] = "rejected a hello from " + task + ", which is not registered";
        } else if (!sameToken(r.token, hello.token())) {
          rejection[0] = "rejected a hello from " + task + " with a wrong token";
        } else if (r.connection != null) {
          rejection[0] = "rejected a second connection from " + task + " attempt " + r.attempt;
          connectedTwice[0] = r.attempt;
        } else {
          r.connection = c;
          c.task = task;
          c.registration = r;
          List<String> pending = List.copyOf(r.pending);
          r.pending.clear();
          return pending;
        }
        return List.of();
      }
    });
    if (rejection[0] != null) {
      if (!rejection[0].isEmpty()) {
        problem("control channel: " + rejection[0]);
      }
      if (connectedTwice[0] > 0) {
        broken(task, connectedTwice[0], "connected a second time");
      }
      return false;
    }
    deliver(c, new TaskMessage.Hello(hello.pid()));
    return true;
  }

  private static boolean sameToken(String expected, String actual) {
    return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), actual.getBytes(StandardCharsets.UTF_8));
  }

  private void deliver(Connection c, TaskMessage message) {
    try {
      listener.message(c.task, c.registration.attempt, message);
    } catch (RuntimeException e) {
      // the listener's own failure must not end the task's connection
    }
  }

  private void ended(Connection c) {
    boolean report;
    synchronized (lock) {
      connections.remove(c);
      report = c.registration != null && !c.silent && !closed;
    }
    if (report) {
      try {
        listener.disconnected(c.task, c.registration.attempt);
      } catch (RuntimeException e) {
        // as in deliver
      }
    }
  }

  private void broken(TaskId task, int attempt, String reason) {
    try {
      listener.broken(task, attempt, reason);
    } catch (RuntimeException e) {
      // as in deliver
    }
  }

  private void problem(String description) {
    try {
      listener.problem(description);
    } catch (RuntimeException e) {
      // as in deliver
    }
  }

  private static String abbreviate(String line) {
    return line.length() <= 200 ? line : line.substring(0, 200) + "...";
  }
}
