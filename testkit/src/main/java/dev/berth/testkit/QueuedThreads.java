package dev.berth.testkit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;

/**
 * An {@link Executor} whose "threads" are the test: what is handed to it waits in a queue until the
 * test runs it with {@link #runNext()} or {@link #runAll()}, on the test's own thread, so work that
 * would race on real threads happens exactly where the test puts it. Thread-safe.
 */
public final class QueuedThreads implements Executor {

  private final Deque<Runnable> queued = new ArrayDeque<>();

  @Override
  public synchronized void execute(Runnable work) {
    queued.add(work);
  }

  /** How many pieces of work wait. */
  public synchronized int waiting() {
    return queued.size();
  }

  /** Runs the oldest piece of work waiting. */
  public void runNext() {
    Runnable next;
    synchronized (this) {
      if (queued.isEmpty()) {
        throw new IllegalStateException("nothing waits to run");
      }
      next = queued.removeFirst();
    }
    next.run();
  }

  /** Runs what waits, in order, including what running it hands over, until nothing waits. */
  public void runAll() {
    while (waiting() > 0) {
      runNext();
    }
  }
}
