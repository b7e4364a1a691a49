package dev.berth.spi;

/**
 * A task process could not be started: missing program, unwritable folder, and so on; or, for a
 * {@linkplain #startsLater() refusal for now}, a cluster whose queue takes no more of the run's jobs
 * at present, so that the attempt is to start later and is no failure of the task.
 */
public final class LaunchException extends Exception {

  private static final long serialVersionUID = 1L;

  private final boolean later;

  /** Creates the exception with a message for people and the cause. */
  public LaunchException(String message, Throwable cause) {
    this(message, cause, false);
  }

  private LaunchException(String message, Throwable cause, boolean later) {
    super(message, cause);
    this.later = later;
  }

  /**
   * A start refused for now (a cluster's limit on the jobs it holds was reached): the attempt is to
   * be started again once there is room.
   */
  public static LaunchException later(String message, Throwable cause) {
    return new LaunchException(message, cause, true);
  }

  /** Whether the start was only refused for now (see {@link #later}). */
  public boolean startsLater() {
    return later;
  }
}
