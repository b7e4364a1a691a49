package dev.berth.client;

import dev.berth.session.Threads;
import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The daemon threads {@code berth-callbacks-<name>-<n>} on which handles' futures complete, never
 * on the engine's thread; as many as callbacks are running at once, each ending 30 s after its
 * last one.
 */
final class CallbackThreads implements Executor {

  private static final long CLOSE_WAIT_SECONDS = 10;

  private final ThreadGroup group;
  private final ThreadPoolExecutor pool;

  CallbackThreads(String session) {
    this.group = new ThreadGroup("berth-callbacks-" + session);
    AtomicInteger count = new AtomicInteger();
    this.pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
      Thread t = new Thread(group, r, "berth-callbacks-" + session + "-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  @Override
  public void execute(Runnable command) {
    pool.execute(command);
  }

  /**
   * Lets the callbacks under way finish, and waits up to 10 s for them and their threads to end.
   *
   * @return whether the calling thread was interrupted meanwhile (the caller restores the flag)
   */
  boolean close() {
    pool.shutdown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS);
    boolean interrupted = false;
    try {
      pool.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      interrupted = true;
    }
    Thread[] found = new Thread[group.activeCount() + 16];
    int n = group.enumerate(found, true);
    for (Thread t : Arrays.asList(found).subList(0, n)) {
      if (t != Thread.currentThread()) {
        interrupted |= Threads.join(t, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    }
    return interrupted;
  }
}
