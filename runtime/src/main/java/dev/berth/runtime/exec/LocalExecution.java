package dev.berth.runtime.exec;

import dev.berth.spi.Execution;
import java.util.LinkedHashSet;
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
   * <p>The tree is taken before any signal is sent, because children of a process that dies are
   * handed to another parent and can no longer be found as its descendants. A grace of zero or less
   * kills at once.
   */
  @Override
  public void terminate(long graceMillis) {
    Set<ProcessHandle> tree = treeOf(process.toHandle());
    if (graceMillis <= 0) {
      killAlive(tree);
      return;
    }
    tree.forEach(ProcessHandle::destroy);
    try {
      killTimer.schedule(() -> killAlive(tree), graceMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // The executor is closed; better an early kill than a process tree that outlives Berth.
      killAlive(tree);
    }
  }

  private static void killAlive(Set<ProcessHandle> snapshot) {
    // Processes started since the snapshot by a still-living member are caught here as well.
    Set<ProcessHandle> tree = new LinkedHashSet<>();
    for (ProcessHandle member : snapshot) {
      if (member.isAlive()) {
        tree.addAll(treeOf(member));
      }
    }
    tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  private static Set<ProcessHandle> treeOf(ProcessHandle root) {
    Set<ProcessHandle> tree = new LinkedHashSet<>();
    tree.add(root);
    root.descendants().forEach(tree::add);
    return tree;
  }
}
