package dev.berth.os;

import dev.berth.spi.Timers;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@link Timers} on one daemon thread of their own, named {@code berth-timers} unless told otherwise.
 * Actions run one at a time, in due order; an action that throws is reported to the error handler and
 * the thread carries on.
 */
public final class SystemTimers implements Timers, AutoCloseable {

  private static final long CLOSE_WAIT_SECONDS = 5;

  private final ScheduledThreadPoolExecutor scheduler;
  private final Consumer<Throwable> onError;
  private volatile Thread timerThread;

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
    ThreadFactory threads = DaemonThreads.named(threadName, false);
    this.scheduler = new ScheduledThreadPoolExecutor(1, action -> {
      Thread t = threads.newThread(action);
      timerThread = t;
      return t;
    });
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

  /**
   * Stops the timer thread; actions that have not run yet never will. Called from another thread, it
   * returns once the timer thread has ended (or after a few seconds, should an action not stop), so
   * that a closed session leaves no thread of Berth's behind.
   */
  @Override
  public void close() {
    scheduler.shutdownNow();
    if (Thread.currentThread() == timerThread) {
      return; // an action closing its own timers: the thread ends once the action returns
    }
    try {
      scheduler.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
