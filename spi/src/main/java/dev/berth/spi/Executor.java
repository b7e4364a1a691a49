package dev.berth.spi;

/**
 * Starts task processes. Implementations must report every exit exactly once through the listener,
 * including exits of processes that were terminated.
 */
public interface Executor extends AutoCloseable {

  /**
   * Starts one attempt.
   *
   * @param request what to start
   * @param onExit called once when the process exits
   * @return the running process
   * @throws LaunchException when the process could not be started (the listener is then not called)
   */
  Execution launch(LaunchRequest request, ExitListener onExit) throws LaunchException;

  /** Releases the executor's threads. Running processes are not touched. */
  @Override
  void close();
}
