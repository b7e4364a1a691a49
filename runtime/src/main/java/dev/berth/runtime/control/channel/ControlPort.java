package dev.berth.runtime.control.channel;

import dev.berth.core.model.TaskId;
import dev.berth.protocol.ControlCommand;
import java.nio.file.Path;

/**
 * Berth's end of the control channel as the engine uses it: {@link ControlServer} on a real socket,
 * or a test's stand-in that plays the task processes. What arrives goes to a {@link ControlListener}.
 */
public interface ControlPort extends AutoCloseable {

  /** The socket's path, for the task's {@code BERTH_CONTROL}. */
  Path socketPath();

  /** Registers an attempt of a task, replacing an earlier one, and returns its token. */
  String register(TaskId task, int attempt);

  /** Sends a command to a task; before its hello the command waits for it. */
  void send(TaskId task, ControlCommand command);

  /** Drops a task's registration and closes its connection, without a {@code disconnected} report. */
  void forget(TaskId task);

  /**
   * Whether the task's registered attempt has a connection whose hello was accepted and which has
   * not ended: its {@code disconnected} report, after every message of the connection, is still to come.
   */
  boolean isConnected(TaskId task);

  /** Closes every connection and the channel. */
  @Override
  void close();
}
