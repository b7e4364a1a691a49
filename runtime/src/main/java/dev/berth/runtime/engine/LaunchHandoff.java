package dev.berth.runtime.engine;

import dev.berth.spi.ExitListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Keeps the loop's messages about one attempt started on a launch thread in order: what the
 * executor reports on its own threads before the launch thread has told the loop that the launch
 * returned (a task that ends at once, a pool call an engine began at once) is handed on only after
 * that, in the order it came. Thread-safe.
 */
final class LaunchHandoff {

  private final ExitListener exits;
  private final Consumer<Runnable> toLoop;
  private final List<Runnable> early = new ArrayList<>();
  private boolean told;

  /** A handoff that passes what the executor reports to {@code exits} once {@link #told(Runnable)} has run. */
  LaunchHandoff(ExitListener exits, Consumer<Runnable> toLoop) {
    this.exits = exits;
    this.toLoop = toLoop;
  }

  /** What the executor is to report the attempt's start and exit to. */
  ExitListener listener() {
    return new ExitListener() {
      @Override
      public void started(long pid, Optional<String> job) {
        pass(() -> exits.started(pid, job));
      }

      @Override
      public void exited(int exitCode) {
        pass(() -> exits.exited(exitCode));
      }
    };
  }

  private void pass(Runnable notice) {
    synchronized (this) {
      if (!told) {
        early.add(notice);
        return;
      }
    }
    notice.run();
  }

  /** Hands {@code launched} (what the loop is to do now that the launch returned) to the loop, then what came before. */
  void told(Runnable launched) {
    List<Runnable> before;
    synchronized (this) {
      toLoop.accept(launched);
      told = true;
      before = List.copyOf(early);
      early.clear();
    }
    before.forEach(Runnable::run);
  }
}
