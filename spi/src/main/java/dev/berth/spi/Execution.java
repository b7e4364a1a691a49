package dev.berth.spi;

/** A started task process. Methods may be called from any thread. */
public interface Execution {

  /** Operating-system process id, or -1 when the executor has none. */
  long pid();

  /** Whether the process is still running. */
  boolean isAlive();

  /**
   * Ends the process and every process it started: a polite termination signal first, then a
   * kill after the grace period. Returns at once; the exit is reported to the {@link ExitListener}.
   *
   * @param graceMillis time the process tree gets to exit after the polite signal
   */
  void terminate(long graceMillis);
}
