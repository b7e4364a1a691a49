package dev.berth.slurm;

import java.time.Duration;

/**
 * The tracker's wait between two polls: {@code initial} after a change, doubling up to {@code max}
 * while nothing changes. Not thread-safe.
 */
final class Backoff {

  private final Duration initial;
  private final Duration max;
  private Duration current;

  Backoff(Duration initial, Duration max) {
    this.initial = initial;
    this.max = max;
    this.current = initial;
  }

  /** The wait before the next poll, after a poll that did or did not see a change. */
  Duration next(boolean changed) {
    if (changed) {
      current = initial;
    } else {
      Duration doubled = current.multipliedBy(2);
      current = doubled.compareTo(max) > 0 ? max : doubled;
    }
    return current;
  }

  /** Starts again from the initial wait. */
  Duration reset() {
    current = initial;
    return current;
  }
}
