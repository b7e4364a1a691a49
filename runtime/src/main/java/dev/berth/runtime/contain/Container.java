package dev.berth.runtime.contain;

import dev.berth.core.lifecycle.MeasuredUsage;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One task attempt's processes kept together. The executor starts the attempt with
 * {@link #command(List)} and {@link #environment()}, or from a thread it moved inside with
 * {@link #enter()}, so the process is inside before it runs any of the task's code (no fork can
 * slip out first), and when the attempt's process exits it reads
 * {@link #usage()} and {@link #oomKilled()}, {@link #empty() empties} the container of whatever the
 * task left running, reports the exit, and then {@link #close() closes} (removes) the container.
 */
public interface Container {

  /** The argument vector to start instead of {@code argv}: one that joins this container, then runs {@code argv} unchanged. */
  List<String> command(List<String> argv);

  /**
   * Moves the calling thread into this container, for a spawner that starts the attempt's process
   * from this thread: the process then begins inside, and its argument vector needs no joining
   * command. Closing the result moves the thread back. Empty where only the process itself can join
   * ({@link #command(List)}), or when the thread could not be moved in.
   */
  default Optional<Entered> enter() {
    return Optional.empty();
  }

  /** A thread that {@link #enter()} moved into a container. */
  interface Entered extends AutoCloseable {
    /** Moves the thread back where it was, as far as it can. */
    @Override
    void close();
  }

  /** Variables to add to the attempt's environment. */
  Map<String, String> environment();

  /** Takes a sample of a sampled measurement; exact containers have nothing to do. */
  default void sample() {}

  /** What the container's processes used so far (peak memory, CPU seconds). */
  MeasuredUsage usage();

  /** Whether the kernel's OOM killer ended a process of the container. */
  boolean oomKilled();

  /** Sends SIGTERM (or, when {@code force}, SIGKILL) to every process of the container; returns them. */
  java.util.List<ProcessHandle> signalAll(boolean force);

  /** Whether no process of the container is left. */
  boolean isEmpty();

  /**
   * Reads the container's last figures and kills every process left in it; {@link #usage()} and
   * {@link #oomKilled()} answer those figures from then on. The container itself stays until
   * {@link #close()}, so an exit can be reported before the kernel has removed it. Idempotent; by
   * default the whole {@link #close()}.
   */
  default void empty() {
    close();
  }

  /** Kills every process left in the container and removes it. Idempotent. */
  void close();
}
