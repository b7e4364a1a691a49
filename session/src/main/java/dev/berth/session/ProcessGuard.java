package dev.berth.session;

import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Executor;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Wraps the session's {@link LocalProcessExecutor} so that closing the session leaves nothing
 * behind: processes still running are killed with their trees, and the executor's exit threads are
 * remembered so the session can wait for them to end. Terminations are the executor's own; its
 * {@code close()} runs the kills still pending at once.
 */
final class ProcessGuard implements Executor {

  private final LocalProcessExecutor local;
  private final Executor delegate;
  private final Set<Thread> exitThreads = ConcurrentHashMap.newKeySet();

  private final Set<Execution> live = ConcurrentHashMap.newKeySet();
  /** Launches share it, so they may run on several threads at once; {@link #abandon()} waits for them to register. */
  private final ReadWriteLock abandoning = new ReentrantReadWriteLock();
  private volatile boolean abandoned;

  ProcessGuard(LocalProcessExecutor delegate) {
    this(delegate, delegate);
  }

  /** A guard launching through {@code front}, which starts its processes through {@code local} (or is it). */
  ProcessGuard(LocalProcessExecutor local, Executor front) {
    this.local = local;
    this.delegate = front;
  }

  @Override
  public Execution launch(LaunchRequest request, ExitListener onExit) throws LaunchException {
    abandoning.readLock().lock();
    try {
      return launchUnlessAbandoned(request, onExit);
    } finally {
      abandoning.readLock().unlock();
    }
  }

  private Execution launchUnlessAbandoned(LaunchRequest request, ExitListener onExit) throws LaunchException {
    if (abandoned) {
      throw new LaunchException("the JVM is shutting down", null);
    }
    Execution[] self = new Execution[1];
    Execution e = delegate.launch(request, new ExitListener() {
      @Override
      public void exited(int code) {
        exitThreads.add(Thread.currentThread());
        synchronized (self) {
          if (self[0] != null) {
            live.remove(self[0]);
          }
          self[0] = null;
        }
        if (!abandoned) {
          onExit.exited(code);
        }
      }

      @Override
      public void started(long pid, Optional<String> job) {
        onExit.started(pid, job);
      }
    });
    synchronized (self) {
      if (e.isAlive()) {
        self[0] = e;
        live.add(e);
      }
    }
    return e;
  }

  /**
   * Kills at once, with their trees, the processes still running: after the engine stopped
   * abnormally, nothing else would.
   */
  void killRemaining() {
    for (Execution e : List.copyOf(live)) {
      e.terminate(0);
    }
  }

  /**
   * For a JVM that exits without the session's {@code close()}: kills every process at once, and
   * from now on launches nothing and reports no exit, so that to the next session on the folder
   * the attempts look as if the scheduler had died (no exit mark): they count as interrupted and
   * run again, using no retry budget.
   */
  void abandon() {
    abandoning.writeLock().lock();
    try {
      abandoned = true;
      killRemaining();
    } finally {
      abandoning.writeLock().unlock();
    }
  }

  /** Kills what still runs, then closes the executor, which kills what still waits for its kill. */
  @Override
  public void close() {
    killRemaining();
    delegate.close();
  }

  /** The threads that reported exits, to wait for after {@link #close()}. */
  List<Thread> threads() {
    return List.copyOf(exitThreads);
  }

  /** Waits up to {@code millis} for the executor's threads to end. */
  void awaitExecutor(long millis) throws InterruptedException {
    local.awaitTermination(millis);
  }
}
