package dev.berth.runtime.exec;

import dev.berth.spi.ExitListener;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Records the exits reported to one listener, and the thread that reported the first. */
final class Exits implements ExitListener {

  static final long WAIT_SECONDS = 20;

  private final CompletableFuture<Integer> first = new CompletableFuture<>();
  private final AtomicInteger count = new AtomicInteger();
  private volatile String threadName;

  @Override
  public void exited(int exitCode) {
    if (count.incrementAndGet() == 1) {
      threadName = Thread.currentThread().getName();
    }
    first.complete(exitCode);
  }

  /** The first exit code, waiting for it at most {@link #WAIT_SECONDS}. */
  int await() throws Exception {
    return first.get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  int count() {
    return count.get();
  }

  String threadName() {
    return threadName;
  }
}
