package dev.berth.os;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Thread factories for Berth's own helper threads, which must never keep the JVM alive. */
public final class DaemonThreads {

  private DaemonThreads() {}

  /**
   * A factory of daemon threads named {@code name}, or {@code name-1}, {@code name-2} and so on when
   * {@code numbered} is true.
   */
  public static ThreadFactory named(String name, boolean numbered) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, numbered ? name + "-" + count.incrementAndGet() : name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
