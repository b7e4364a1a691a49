package dev.berth.core.model;

import java.time.Duration;
import java.util.Objects;

/**
 * How a task is retried after an ordinary failure (a non-zero exit, a crash, a start failure, a
 * run past its timeout).
 *
 * @param retries retries after the first attempt; the task gets at most {@code retries + 1} attempts
 * @param delay wait before the first retry
 * @param backoff factor the wait grows by for each further retry (1 = constant)
 * @param maxDelay cap on the wait
 */
public record RetryPolicy(int retries, Duration delay, double backoff, Duration maxDelay) {

  /** No retries. */
  public static final RetryPolicy NONE = new RetryPolicy(0, Duration.ZERO, 2.0, Duration.ofMinutes(10));

  /** Validates. */
  public RetryPolicy {
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be >= 0 but was " + retries);
    }
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (delay.isNegative() || maxDelay.isNegative()) {
      throw new IllegalArgumentException("retry delays must be >= 0");
    }
    if (!(backoff >= 1.0) || Double.isInfinite(backoff)) {
      throw new IllegalArgumentException("retry-backoff must be a number >= 1 but was " + backoff);
    }
  }

  /** The wait before retry number {@code retry} (1-based): delay x backoff^(retry-1), capped. */
  public Duration delayBefore(int retry) {
    double millis = delay.toMillis() * Math.pow(backoff, Math.max(0, retry - 1));
    long capped = (long) Math.min(millis, (double) maxDelay.toMillis());
    return Duration.ofMillis(capped);
  }
}
