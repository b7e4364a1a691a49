package dev.berth.spi;

import java.time.Duration;

/**
 * Runs actions after a delay. The real implementation uses a scheduled thread; the fake in
 * {@code berth-testkit} runs due actions when a test advances its clock.
 */
public interface Timers {

  /**
   * Schedules {@code action} to run once after {@code delay}.
   *
   * @return a handle that cancels the action if it has not run yet
   */
  Cancellable schedule(Duration delay, Runnable action);

  /** A scheduled action that can still be cancelled. */
  @FunctionalInterface
  interface Cancellable {
    /** Cancels the action; does nothing if it already ran. */
    void cancel();
  }
}
