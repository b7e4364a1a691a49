package dev.berth.runtime.engine;

import dev.berth.spi.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The engine's timers: the probe tick every interval, and one wake-up at the earliest time a
 * decision waits for (a retry delay, a timeout). Each fires by handing a message to the loop.
 */
final class LoopTimers {

  private final Timers timers;
  private final InstantSource clock;
  private final Consumer<Runnable> toLoop;
  private Timers.Cancellable tick;
  private Timers.Cancellable wake;
  private Instant wakeAt;

  LoopTimers(Timers timers, InstantSource clock, Consumer<Runnable> toLoop) {
    this.timers = timers;
    this.clock = clock;
    this.toLoop = toLoop;
  }

  /** Runs {@code onTick} on the loop every {@code interval} while {@code going} says so. */
  void tickEvery(Supplier<Duration> interval, BooleanSupplier going, Runnable onTick) {
    tick = timers.schedule(interval.get(), () -> toLoop.accept(() -> {
      if (going.getAsBoolean()) {
        onTick.run();
        tickEvery(interval, going, onTick);
      }
    }));
  }

  /** Wakes the loop at {@code at} (null: no wish), unless it is already woken earlier. */
  void wakeAt(Instant at) {
    if (at == null || (wakeAt != null && !at.isBefore(wakeAt))) {
      return;
    }
    if (wake != null) {
      wake.cancel();
    }
    wakeAt = at;
    Duration delay = Duration.between(clock.instant(), at);
    wake = timers.schedule(delay.isNegative() ? Duration.ZERO : delay, () -> toLoop.accept(() -> {
      wakeAt = null;
      wake = null;
    }));
  }

  /** Cancels the tick and the wake-up. */
  void stop() {
    if (tick != null) {
      tick.cancel();
    }
    if (wake != null) {
      wake.cancel();
    }
  }
}
