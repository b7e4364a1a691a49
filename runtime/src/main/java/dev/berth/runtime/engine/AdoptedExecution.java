package dev.berth.runtime.engine;

import dev.berth.spi.Execution;
import dev.berth.runtime.exec.ProcessTrees;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A task process started by an earlier scheduler of the same run and still alive when the run
 * resumed. Berth cannot learn its exit code (it is not Berth's child), only that it ended.
 */
final class AdoptedExecution implements Execution {

  private final ProcessHandle process;

  AdoptedExecution(ProcessHandle process) {
    this.process = process;
  }

  /** Completes when the process ends. */
  CompletableFuture<ProcessHandle> onExit() {
    return process.onExit();
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void terminate(long graceMillis) {
    Set<ProcessHandle> tree = ProcessTrees.of(process);
    ProcessTrees.terminate(tree);
    CompletableFuture.delayedExecutor(Math.max(0, graceMillis), TimeUnit.MILLISECONDS)
        .execute(() -> ProcessTrees.killAlive(tree));
  }
}
