package dev.berth.runtime.contain;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** What every kind of container does the same way. */
final class Containers {

  /** Rounds of SIGKILL before a container is given up as not empty (a process stuck in the kernel). */
  private static final int KILL_ROUNDS = 20;
  private static final long EXIT_WAIT_MILLIS = 500;

  private Containers() {}

  static void signal(List<ProcessHandle> processes, boolean force) {
    for (ProcessHandle p : processes) {
      if (p.pid() == ProcessHandle.current().pid()) {
        continue;
      }
      if (force) {
        p.destroyForcibly();
      } else {
        p.destroy();
      }
    }
  }

  /**
   * Reads a container's usage and OOM record, so that its figures are the task's own and not the
   * kill's, then kills until nothing is left.
   */
  static void readThenEmpty(Container c) {
    c.usage();
    c.oomKilled();
    killUntilEmpty(c);
  }

  /**
   * Kills until nothing is left: a process that forks while the signals go out can add a member,
   * so each round kills what is there now and waits for those to be gone before looking again.
   */
  static void killUntilEmpty(Container c) {
    killUntilGone(() -> c.isEmpty() ? List.of() : c.signalAll(true));
  }

  /**
   * Runs {@code killRound}, which kills what it finds and returns it, until it finds nothing, waiting
   * each time for those it killed to be gone.
   */
  static void killUntilGone(Supplier<List<ProcessHandle>> killRound) {
    for (int round = 0; round < KILL_ROUNDS; round++) {
      List<ProcessHandle> killed = killRound.get();
      if (killed.isEmpty()) {
        return;
      }
      for (ProcessHandle p : killed) {
        try {
          p.onExit().get(EXIT_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
          // the next round looks again
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
