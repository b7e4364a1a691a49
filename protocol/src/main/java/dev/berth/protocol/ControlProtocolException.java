package dev.berth.protocol;

/** A line on the control channel that does not follow the protocol. */
public final class ControlProtocolException extends Exception {

  private static final long serialVersionUID = 1L;

  ControlProtocolException(String message) {
    super(message);
  }

  ControlProtocolException(String message, Throwable cause) {
    super(message, cause);
  }
}
