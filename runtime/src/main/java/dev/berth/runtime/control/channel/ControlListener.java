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

  /**
   * Berth closed a connection of an authenticated task, or refused it a second one, because of what
   * it sent: a malformed line or unknown message, a line over the limit, a second connection for the
   * same attempt. The attempt can no longer be trusted; {@code disconnected} follows for a closed
   * connection. {@link #problem} has the details too.
   *
   * @param reason for people, e.g. {@code "sent a malformed line (unknown type 'x')"}
   */
  default void broken(TaskId task, int attempt, String reason) {}

  /** Something went wrong that Berth should log: a rejected connection, a malformed line. */
  void problem(String description);
}
