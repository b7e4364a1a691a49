package dev.berth.client;

import dev.berth.runtime.exec.ProcessTrees;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Executor;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Wraps the session's {@code LocalProcessExecutor} so that closing the session leaves nothing
 * behind. Terminations work as the executor's own (the whole process tree gets the polite signal at
 * once and a kill after the grace period) but the delayed kills run on this guard's thread, which
 * {@link #close()} stops after running the kills still pending, at once; and the executor's exit
 * threads are remembered so the session can wait for them to end.
 */
final class ProcessGuard implements Executor {

  private final Executor delegate;
  private final ScheduledThreadPoolExecutor killer;
  private final Set<Thread> exitThreads = ConcurrentHashMap.newKeySet();

  private final Set<Guarded> live = ConcurrentHashMap.newKeySet();
  private volatile boolean abandoned;

  ProcessGuard(Executor delegate, ThreadGroup group, String name) {
    this.delegate = delegate;
    this.killer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(group, r, "berth-session-kill-" + name);
      t.setDaemon(true);
      return t;
    });
  }

  @Override
  public synchronized Execution launch(LaunchRequest request, ExitListener onExit) throws LaunchException {
    if (abandoned) {
      throw new LaunchException("the JVM is shutting down", null);
    }
    Guarded[] self = new Guarded[1];
    Execution e = delegate.launch(request, code -> {
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
    });
    Guarded g = new Guarded(e);
    synchronized (self) {
      if (e.isAlive()) {
        self[0] = g;
        live.add(g);
      }
    }
    return g;
  }

  /**
   * Kills at once, with their trees, the processes still running: after the engine stopped
   * abnormally, nothing else would.
   */
  void killRemaining() {
    for (Guarded g : List.copyOf(live)) {
      g.execution.terminate(0);
    }
  }

  /**
   * For a JVM that exits without the session's {@code close()}: kills every process at once, and
   * from now on launches nothing and reports no exit, so that to the next session on the folder
   * the attempts look as if the scheduler had died (no exit mark): they count as interrupted and
   * run again, using no retry budget.
   */
  synchronized void abandon() {
    abandoned = true;
    killRemaining();
  }

  /** Closes the executor, kills what still waits for its kill, and stops the kill thread. */
  @Override
  public void close() {
    killRemaining();
    delegate.close();
    List<Runnable> pending = killer.shutdownNow();
    pending.forEach(Runnable::run);
  }

  /** The threads that reported exits, to wait for after {@link #close()}. */
  List<Thread> threads() {
    return List.copyOf(exitThreads);
  }

  /** Waits up to {@code millis} for the kill thread to end. */
  void awaitKiller(long millis) throws InterruptedException {
    killer.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }

  private final class Guarded implements Execution {
    private final Execution execution;

    Guarded(Execution execution) {
      this.execution = execution;
    }

    @Override
    public long pid() {
      return execution.pid();
    }

    @Override
    public boolean isAlive() {
      return execution.isAlive();
    }

    @Override
    public void terminate(long graceMillis) {
      var root = execution.pid() > 0 ? ProcessHandle.of(execution.pid()) : java.util.Optional.<ProcessHandle>empty();
      if (graceMillis <= 0 || root.isEmpty() || !execution.isAlive()) {
        execution.terminate(graceMillis);
        return;
      }
      Set<ProcessHandle> tree = ProcessTrees.of(root.get());
      ProcessTrees.terminate(tree);
      try {
        killer.schedule(() -> ProcessTrees.killAlive(tree), graceMillis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException closed) {
        ProcessTrees.killAlive(tree);
      }
    }
  }
}
