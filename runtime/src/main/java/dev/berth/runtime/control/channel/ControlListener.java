package dev.berth.runtime.control.channel;

import dev.berth.core.model.TaskId;
import dev.berth.protocol.TaskMessage;

/**
 * Receives what arrives on the control channel. Methods are called on the channel's reader
 * threads, one thread per connection, so the messages of one task arrive in order; implementations
 * should hand them to their own loop and return quickly. Exceptions thrown here are swallowed.
 */
public interface ControlListener {

  /** A message from an authenticated task; the first one of each connection is a hello. */
  void message(TaskId task, int attempt, TaskMessage message);

  /**
   * The connection of an authenticated task ended. Reported once per connection, and not at all
   * after {@link ControlServer#forget}, a new {@link ControlServer#register} of the task, or
   * {@link ControlServer#close}.
   */
  void disconnected(TaskId task, int attempt);

  /** Something went wrong that Berth should log: a rejected connection, a malformed line. */
  void problem(String description);
}
