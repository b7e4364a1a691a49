package dev.berth.runtime.exec;

import dev.berth.spi.Execution;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A process started by {@link LocalProcessExecutor}, ended together with all its descendants. */
final class LocalExecution implements Execution {

  private final Process process;
  private final ScheduledExecutorService killTimer;

  LocalExecution(Process process, ScheduledExecutorService killTimer) {
    this.process = process;
    this.killTimer = killTimer;
  }

  @Override
  public long pid() {
    try {
      return process.pid();
    } catch (UnsupportedOperationException e) {
      return -1;
    }
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The tree is taken first (see {@link ProcessTrees}). A grace of zero or less kills at once.
   */
  @Override
  public void terminate(long graceMillis) {
    Set<ProcessHandle> tree = ProcessTrees.of(process.toHandle());
    if (graceMillis <= 0) {
      ProcessTrees.killAlive(tree);
      return;
    }
    ProcessTrees.terminate(tree);
    try {
      killTimer.schedule(() -> ProcessTrees.killAlive(tree), graceMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // The executor is closed; better an early kill than a process tree that outlives Berth.
      ProcessTrees.killAlive(tree);
    }
  }
}
