package dev.berth.testkit;

import dev.berth.spi.Timers;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The fake clock's timers, telling the test each delay scheduled, so that a test can move the clock
 * only once a thread it does not drive (a submission waiting to try again) has set its timer.
 */
public final class SignallingTimers implements Timers {

  private final FakeClock clock;
  private final BlockingQueue<Duration> scheduled = new LinkedBlockingQueue<>();

  /** The timers of {@code clock}. */
  public SignallingTimers(FakeClock clock) {
    this.clock = clock;
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable action) {
    Cancellable timer = clock.schedule(delay, action);
    scheduled.add(delay);
    return timer;
  }

  /** The delay of the next timer scheduled, waiting at most 10 s for one. */
  public Duration next() throws InterruptedException {
    Duration delay = scheduled.poll(10, TimeUnit.SECONDS);
    if (delay == null) {
      throw new AssertionError("no timer was scheduled within 10 s");
    }
    return delay;
  }
}
