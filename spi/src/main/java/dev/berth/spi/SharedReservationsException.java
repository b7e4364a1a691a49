package dev.berth.spi;

/** The host ledger could not be read or written; the message is one line naming the ledger and the problem. */
public final class SharedReservationsException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The problem, with its cause. */
  public SharedReservationsException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The problem. */
  public SharedReservationsException(String message) {
    super(message);
  }
}
