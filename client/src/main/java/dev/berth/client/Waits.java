package dev.berth.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The waiting that task and group handles share, on the future that completes when they end. */
final class Waits {

  private Waits() {}

  /** Waits up to {@code timeout}; true when the future completed in time, in any way. */
  static boolean await(CompletableFuture<?> done, Duration timeout) throws InterruptedException {
    try {
      done.get(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return true;
    }
  }

  /** The future's value; a session that stopped first surfaces as the exception it stopped with. */
  static <T> T get(CompletableFuture<T> done) throws InterruptedException {
    try {
      return done.get();
    } catch (ExecutionException e) {
      throw unwrap(e);
    }
  }

  /** The future's value, waiting up to {@code timeout}. */
  static <T> T get(CompletableFuture<T> done, Duration timeout) throws InterruptedException, TimeoutException {
    try {
      return done.get(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw unwrap(e);
    }
  }

  /** A refused group stays an {@code IllegalArgumentException}; any other failure is the session stopping. */
  private static RuntimeException unwrap(ExecutionException e) {
    Throwable cause = e.getCause();
    if (cause instanceof IllegalArgumentException r) {
      return new IllegalArgumentException(r.getMessage(), r);
    }
    if (cause instanceof RuntimeException r) {
      return new IllegalStateException(r.getMessage(), r);
    }
    return new IllegalStateException(String.valueOf(cause), cause);
  }
}
