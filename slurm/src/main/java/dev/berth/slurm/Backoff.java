package dev.berth.slurm;

import java.time.Duration;

/**
 * The tracker's wait between two polls, as submitit's: {@code initial} after a submission or a
 * cancellation (the first look comes almost at once), then {@code step} (a few seconds), doubling up
 * to {@code max} while nothing changes, and {@code step} again after a round that saw a change. So a
 * run whose jobs take minutes asks Slurm a handful of times per job length, whatever the number of jobs.
 * Not thread-safe.
 */
final class Backoff {

  private final Duration initial;
  private final Duration step;
  private final Duration max;
  private Duration current;

  /** A backoff whose waits are {@code initial}, then {@code step} doubling up to {@code max}; each is capped at {@code max}. */
  Backoff(Duration initial, Duration step, Duration max) {
    this.initial = min(initial, max);
    this.step = min(step, max);
    this.max = max;
    this.current = this.initial;
  }

  /** The wait before the next poll, after a poll that did or did not see a change. */
  Duration next(boolean changed) {
    if (changed || current.compareTo(step) < 0) {
      current = step;
    } else {
      current = min(current.multipliedBy(2), max);
    }
    return current;
  }

  /** Starts again from the initial wait, which it returns. */
  Duration reset() {
    current = initial;
    return current;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) > 0 ? b : a;
  }
}
