package dev.berth.runtime.exec;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.runtime.contain.Container;
import dev.berth.spi.Execution;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A process started by {@link LocalProcessExecutor} in its container, ended together with
 * everything it started: what is left in the container when the process exits, and the whole
 * container when it is terminated.
 */
final class LocalExecution implements Execution {

  private final Spawned process;
  private final Container container;
  private final ScheduledExecutorService killTimer;
  private final Runnable capLogs;
  private volatile MeasuredUsage finalUsage;
  private volatile boolean oomKilled;

  LocalExecution(Spawned process, Container container, ScheduledExecutorService killTimer, Runnable capLogs) {
    this.capLogs = capLogs;
    this.process = process;
    this.container = container;
    this.killTimer = killTimer;
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Takes a sample of the container's usage, where it is sampled, and keeps the logs within their cap. */
  void sample() {
    if (finalUsage == null) {
      container.sample();
      capLogs.run();
    }
  }

  /**
   * The process exited: the container's usage and OOM record are read last and whatever the task left
   * running is killed, all before its exit is reported.
   */
  void ended() {
    container.sample();
    container.empty();
    oomKilled = container.oomKilled();
    capLogs.run();
    finalUsage = container.usage();
  }

  /**
   * Removes the emptied container, once the exit is reported: removing cgroups is a third of what an
   * exit costs the kernel, and nothing waits for it.
   */
  void removeContainer() {
    container.close();
  }

  @Override
  public MeasuredUsage usage() {
    MeasuredUsage u = finalUsage;
    return u != null ? u : container.usage();
  }

  /** A kill by the kernel's OOM killer, recorded by the attempt's cgroup, is a memory kill. */
  @Override
  public Optional<ClusterVerdict> verdict() {
    return oomKilled
        ? Optional.of(new ClusterVerdict(ClusterVerdict.Kind.HOST_OOM, "killed by the kernel's OOM killer (its cgroup's record)"))
        : Optional.empty();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The tree is taken first (see {@link ProcessTrees}), and the container is signalled too, which
   * reaches what left the tree. A grace of zero or less kills at once.
   */
  @Override
  public void terminate(long graceMillis) {
    Set<ProcessHandle> tree = process.handle().map(ProcessTrees::of).orElse(Set.of());
    if (graceMillis <= 0) {
      kill(tree);
      return;
    }
    ProcessTrees.terminate(tree);
    container.signalAll(false);
    try {
      killTimer.schedule(() -> kill(tree), graceMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // The executor is closed; better an early kill than a process tree that outlives Berth.
      kill(tree);
    }
  }

  private void kill(Set<ProcessHandle> tree) {
    ProcessTrees.killAlive(tree);
    container.signalAll(true);
  }
}
