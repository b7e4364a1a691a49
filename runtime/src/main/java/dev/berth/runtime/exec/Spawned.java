package dev.berth.runtime.exec;

import java.util.Optional;

/** A task process a {@link Spawner} started, seen the same way however it was started. */
interface Spawned {

  /** The process id. */
  long pid();

  /** Whether the process has not yet been seen to exit. */
  boolean isAlive();

  /** The process, to find and signal its tree; empty once it has exited (its pid may then be another's). */
  Optional<ProcessHandle> handle();

  /**
   * Waits for the process to exit and returns its exit code as {@link Process#waitFor()} gives it:
   * the code it exited with, or 128 plus the signal that killed it.
   *
   * @throws InterruptedException when the waiting thread is interrupted or the spawner is closed
   */
  int waitFor() throws InterruptedException;

  /** Nobody will call {@link #waitFor()}: the process is reaped when it ends, reporting nothing. */
  default void release() {}
}
