package dev.berth.spi;

/** Receives the exit of a started process. Called once, on an executor thread. */
@FunctionalInterface
public interface ExitListener {

  /**
   * The process exited.
   *
   * @param exitCode the exit status; 128 + n for death by signal n
   */
  void exited(int exitCode);
}
