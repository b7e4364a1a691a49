package dev.berth.testkit;

import dev.berth.spi.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A clock that moves only when a test says so, and that runs timers falling due as it moves, in
 * due-time order (ties in scheduling order). Thread-safe for scheduling; advance from one thread.
 */
public final class FakeClock implements InstantSource, Timers {

  private final PriorityQueue<Timer> timers =
      new PriorityQueue<>((a, b) -> a.due.equals(b.due) ? Long.compare(a.seq, b.seq) : a.due.compareTo(b.due));
  private Instant now;
  private long seq;

  /** A clock at 2026-01-01T00:00:00Z. */
  public FakeClock() {
    this(Instant.parse("2026-01-01T00:00:00Z"));
  }

  /** A clock at {@code start}. */
  public FakeClock(Instant start) {
    this.now = start;
  }

  @Override
  public synchronized Instant instant() {
    return now;
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable action) {
    Timer t = new Timer(now.plus(delay), seq++, action);
    timers.add(t);
    return () -> {
      synchronized (FakeClock.this) {
        timers.remove(t);
      }
    };
  }

  /** Moves time forward, running every timer that falls due on the way, at its due time. */
  public void advance(Duration by) {
    Instant target;
    synchronized (this) {
      target = now.plus(by);
    }
    while (true) {
      Timer next;
      synchronized (this) {
        next = timers.peek();
        if (next == null || next.due.isAfter(target)) {
          now = target;
          return;
        }
        timers.poll();
        now = next.due;
      }
      next.action.run();
    }
  }

  /** Runs the timers that are due now without moving time. */
  public void runDueTimers() {
    advance(Duration.ZERO);
  }

  /** How many timers are waiting. */
  public synchronized int pendingTimers() {
    return timers.size();
  }

  /** Due times of the waiting timers, earliest first. */
  public synchronized List<Instant> pendingDueTimes() {
    List<Timer> copy = new ArrayList<>(timers);
    copy.sort((a, b) -> a.due.compareTo(b.due));
    return copy.stream().map(t -> t.due).toList();
  }

  private static final class Timer {
    final Instant due;
    final long seq;
    final Runnable action;

    Timer(Instant due, long seq, Runnable action) {
      this.due = due;
      this.seq = seq;
      this.action = action;
    }
  }
}
