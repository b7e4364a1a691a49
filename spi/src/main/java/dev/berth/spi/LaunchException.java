package dev.berth.spi;

/** A task process could not be started: missing program, unwritable folder, and so on. */
public final class LaunchException extends Exception {

  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message for people and the cause. */
  public LaunchException(String message, Throwable cause) {
    super(message, cause);
  }
}
