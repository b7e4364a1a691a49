package dev.berth.os;

import dev.berth.spi.Timers;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@link Timers} on one daemon thread of their own, named {@code berth-timers} unless told otherwise.
 * Actions run one at a time, in due order; an action that throws is reported to the error handler and
 * the thread carries on.
 */
public final class SystemTimers implements Timers, AutoCloseable {

  private final ScheduledThreadPoolExecutor scheduler;
  private final Consumer<Throwable> onError;

  /**
   * Starts the timer thread, named {@code berth-timers}.
   *
   * @param onError receives whatever a scheduled action throws; called on the timer thread
   */
  public SystemTimers(Consumer<Throwable> onError) {
    this("berth-timers", onError);
  }

  /**
   * Starts the timer thread, named {@code threadName}: timers whose actions may block (waiting for a
   * command, say) get a thread of their own, so they never delay anyone else's.
   *
   * @param onError receives whatever a scheduled action throws; called on the timer thread
   */
  public SystemTimers(String threadName, Consumer<Throwable> onError) {
    this.onError = Objects.requireNonNull(onError, "onError");
    this.scheduler = new ScheduledThreadPoolExecutor(1, DaemonThreads.named(threadName, false));
    scheduler.setRemoveOnCancelPolicy(true);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A negative delay counts as zero.
   *
   * @throws IllegalStateException when the timers are closed
   */
  @Override
  public Cancellable schedule(Duration delay, Runnable action) {
    Objects.requireNonNull(action, "action");
    long nanos = Math.max(0, saturatedNanos(delay));
    ScheduledFuture<?> future;
    try {
      future = scheduler.schedule(() -> runGuarded(action), nanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      throw new IllegalStateException("timers are closed", e);
    }
    return () -> future.cancel(false);
  }

  /** Stops the timer thread; actions that have not run yet never will. */
  @Override
  public void close() {
    scheduler.shutdownNow();
  }

  private void runGuarded(Runnable action) {
    try {
      action.run();
    } catch (Throwable t) {
      // An exception escaping here would be hidden inside the ScheduledFuture and lost.
      onError.accept(t);
    }
  }

  private static long saturatedNanos(Duration delay) {
    try {
      return delay.toNanos();
    } catch (ArithmeticException e) {
      return delay.isNegative() ? 0 : Long.MAX_VALUE;
    }
  }
}
