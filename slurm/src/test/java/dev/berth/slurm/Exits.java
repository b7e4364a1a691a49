package dev.berth.slurm;

import dev.berth.spi.ExitListener;
import dev.berth.testkit.FakeClock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Records the exits reported to one listener and the thread that reported the first. */
final class Exits implements ExitListener {

  private final CompletableFuture<Integer> first = new CompletableFuture<>();
  private final AtomicInteger count = new AtomicInteger();
  private volatile String thread = "";

  @Override
  public void exited(int exitCode) {
    if (count.incrementAndGet() == 1) {
      thread = Thread.currentThread().getName();
    }
    first.complete(exitCode);
  }

  /**
   * The first exit code once the tracker's rounds have run for {@link Requests#ROUNDS} on {@code clock};
   * waits only for the exit thread to hand it over.
   */
  int afterRounds(FakeClock clock) throws Exception {
    clock.advance(Requests.ROUNDS);
    return await(Requests.WAIT);
  }

  /** The first exit code, waiting at most {@code seconds}. */
  int await(long seconds) throws Exception {
    return first.get(seconds, TimeUnit.SECONDS);
  }

  int count() {
    return count.get();
  }

  boolean reported() {
    return first.isDone();
  }

  String thread() {
    return thread;
  }
}
