package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.TaskMessage;
import dev.berth.runtime.control.channel.ControlListener;
import dev.berth.runtime.control.channel.ControlPort;
import dev.berth.runtime.control.channel.ControlServer;
import dev.berth.runtime.control.channel.ControlSocketPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The engine's end of the two-stage protocol: the run's control channel, opened on first use, and
 * the environment a two-stage task gets. What arrives on the channel's threads is handed to the
 * engine loop through {@code toLoop}, where a {@link Handler} ({@link TaskConversations}) makes
 * task events of it; everything else runs on the loop thread.
 */
final class TwoStageChannel implements AutoCloseable {

  /** Opens the channel, reporting to this listener: the run's socket, or a test's stand-in. */
  interface Opener {
    /** Opens it. */
    ControlPort open(ControlListener listener) throws IOException;
  }

  /** What the engine does with what arrives, on its loop thread. */
  interface Handler {
    /** A message of this attempt's connection; its hello first. */
    void message(TaskId task, int attempt, TaskMessage message);

    /** The attempt's connection ended, after its last message. */
    void disconnected(TaskId task, int attempt);

    /** Berth closed or refused the attempt's connection because of what it sent. */
    void broken(TaskId task, int attempt, String reason);
  }

  private final Consumer<Runnable> toLoop;
  private Opener opener;
  private Handler handler;
  private ControlPort port;

  TwoStageChannel(Path runDir, Consumer<Runnable> toLoop) {
    this.toLoop = toLoop;
    this.opener = listener -> ControlServer.open(ControlSocketPath.forRun(runDir), listener);
  }

  /** Hands what arrives to this handler. Call before the first attempt registers. */
  void handleWith(Handler h) {
    this.handler = h;
  }

  /** Opens the channel this way instead of on the run's socket. Call before the first attempt registers. */
  void openWith(Opener o) {
    this.opener = o;
  }

  /** The variables a two-stage attempt needs to reach Berth; opens the channel on first use. */
  SortedMap<String, String> register(TaskId task, int attempt) {
    ControlPort p = port();
    SortedMap<String, String> env = new TreeMap<>();
    env.put("BERTH_CONTROL", p.socketPath().toString());
    env.put("BERTH_TOKEN", p.register(task, attempt));
    return env;
  }

  /** Sends a command to a task's process. */
  void send(TaskId task, ControlCommand command) {
    if (port != null) {
      port.send(task, command);
    }
  }

  /** Drops an attempt's connection: its process has exited, or it is no longer trusted. */
  void forget(TaskId task) {
    if (port != null) {
      port.forget(task);
    }
  }

  /** Whether the task's attempt has a connection whose end is still to be reported. */
  boolean isConnected(TaskId task) {
    return port != null && port.isConnected(task);
  }

  @Override
  public void close() {
    if (port != null) {
      port.close();
    }
  }

  private ControlPort port() {
    if (port == null) {
      try {
        port = opener.open(new ControlListener() {
          @Override
          public void message(TaskId task, int attempt, TaskMessage message) {
            toLoop.accept(() -> handler.message(task, attempt, message));
          }

          @Override
          public void disconnected(TaskId task, int attempt) {
            toLoop.accept(() -> handler.disconnected(task, attempt));
          }

          @Override
          public void broken(TaskId task, int attempt, String reason) {
            toLoop.accept(() -> handler.broken(task, attempt, reason));
          }

          @Override
          public void problem(String description) {
            System.err.println("berth: control channel: " + description);
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException("cannot open the control socket for two-stage tasks", e);
      }
    }
    return port;
  }
}
