package dev.berth.runtime.engine;

import dev.berth.core.model.TaskId;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.TaskMessage;
import dev.berth.runtime.control.channel.ControlListener;
import dev.berth.runtime.control.channel.ControlPort;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The control channel without a socket, for engine tests: the test plays each two-stage task's
 * side (hello, messages, hanging up, a line Berth refuses), and what it says reaches the engine's
 * inbox at once, in order, as the real channel's reader thread would hand it over. Berth's commands
 * are collected. Like the real channel, it drops what a forgotten or unconnected attempt says.
 */
final class FakeControl implements ControlPort {

  private final Map<TaskId, Integer> registered = new TreeMap<>();
  private final Set<TaskId> connected = new TreeSet<>();
  private final Map<TaskId, List<ControlCommand>> commands = new TreeMap<>();
  private ControlListener listener;

  /** Opens this fake as the engine's channel. */
  TwoStageChannel.Opener opener() {
    return l -> {
      listener = l;
      return this;
    };
  }

  @Override
  public Path socketPath() {
    return Path.of("/nonexistent/berth-fake.sock");
  }

  @Override
  public synchronized String register(TaskId task, int attempt) {
    registered.put(task, attempt);
    connected.remove(task);
    return "token-" + task + "-" + attempt;
  }

  @Override
  public synchronized void send(TaskId task, ControlCommand command) {
    commands.computeIfAbsent(task, k -> new ArrayList<>()).add(command);
  }

  @Override
  public synchronized void forget(TaskId task) {
    registered.remove(task);
    connected.remove(task);
  }

  @Override
  public synchronized boolean isConnected(TaskId task) {
    return connected.contains(task);
  }

  @Override
  public void close() {}

  /** The task connects and says hello; ignored for an attempt that is not registered or already connected. */
  void hello(TaskId task) {
    Integer attempt;
    synchronized (this) {
      attempt = registered.get(task);
      if (attempt == null || !connected.add(task)) {
        return;
      }
    }
    listener.message(task, attempt, new TaskMessage.Hello(4242));
  }

  /** The task sends a message on its connection; dropped when it has none. */
  void say(TaskId task, TaskMessage message) {
    Integer attempt = connection(task);
    if (attempt != null) {
      listener.message(task, attempt, message);
    }
  }

  /** The task's end of the connection closes; whether it had one open. */
  boolean hangUp(TaskId task) {
    Integer attempt;
    synchronized (this) {
      attempt = connected.remove(task) ? registered.get(task) : null;
    }
    if (attempt == null) {
      return false;
    }
    listener.disconnected(task, attempt);
    return true;
  }

  /** Berth closes the task's connection for what it sent, as for a malformed line. */
  void refuse(TaskId task, String reason) {
    Integer attempt = connection(task);
    if (attempt != null) {
      listener.broken(task, attempt, reason);
      hangUp(task);
    }
  }

  /** The task opens a second connection, which Berth refuses; its first stays open. */
  void connectAgain(TaskId task) {
    Integer attempt = connection(task);
    if (attempt != null) {
      listener.broken(task, attempt, "connected a second time");
    }
  }

  /** The commands Berth sent the task, over all its attempts, in order. */
  synchronized List<ControlCommand> commands(TaskId task) {
    return List.copyOf(commands.getOrDefault(task, List.of()));
  }

  private synchronized Integer connection(TaskId task) {
    return connected.contains(task) ? registered.get(task) : null;
  }
}
