package dev.berth.spi;

import java.util.Optional;

/** Receives the exit of a started process. Called once, on an executor thread. */
@FunctionalInterface
public interface ExitListener {

  /**
   * The attempt began to run after its launch had returned: a call that waited in its pool for an
   * engine now runs in one. Called at most once, before {@link #exited}; an attempt that runs as soon
   * as it is launched shows its pid and id through its {@link Execution} instead.
   *
   * @param pid the process it runs in
   * @param job the id it runs under (an engine's name), if any
   */
  default void started(long pid, Optional<String> job) {}

  /**
   * The process exited.
   *
   * @param exitCode the exit status; 128 + n for death by signal n
   */
  void exited(int exitCode);
}
