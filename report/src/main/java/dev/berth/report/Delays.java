package dev.berth.report;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Waits between webhook tries, injected so tests need not wait. */
@FunctionalInterface
public interface Delays {

  /** A future completed after {@code delay}. */
  CompletableFuture<Void> after(Duration delay);

  /** Real waiting, without holding a thread. */
  static Delays real() {
    return delay -> CompletableFuture.runAsync(
        () -> {}, CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS));
  }
}
