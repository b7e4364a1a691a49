package dev.berth.runtime.engine;

import dev.berth.spi.ExitListener;
import java.util.function.Consumer;

/**
 * Keeps the loop's messages about one attempt started on a launch thread in order: the attempt's
 * exit, which the executor may report on its own thread before the launch thread has told the loop
 * that the process started (a task that ends at once), is handed to the loop only after that.
 * Thread-safe.
 */
final class LaunchHandoff {

  private final ExitListener exits;
  private final Consumer<Runnable> toLoop;
  private boolean told;
  private Integer earlyExit;

  /** A handoff that reports the exit to {@code exits} once {@link #told(Runnable)} has run. */
  LaunchHandoff(ExitListener exits, Consumer<Runnable> toLoop) {
    this.exits = exits;
    this.toLoop = toLoop;
  }

  /** What the executor is to call when the attempt's process exits. */
  ExitListener listener() {
    return code -> {
      synchronized (this) {
        if (!told) {
          earlyExit = code;
          return;
        }
      }
      exits.exited(code);
    };
  }

  /** Hands {@code launched} (what the loop is to do now that the launch returned) to the loop, then any exit seen before. */
  void told(Runnable launched) {
    Integer exit;
    synchronized (this) {
      toLoop.accept(launched);
      told = true;
      exit = earlyExit;
    }
    if (exit != null) {
      exits.exited(exit);
    }
  }
}
