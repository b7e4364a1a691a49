package dev.berth.session;

/** Waiting for a session's threads (the engine's, the executor's, the front door's) without giving up on an interrupt. */
public final class Threads {

  private Threads() {}

  /**
   * Waits up to {@code millis} (0: for ever) for {@code t} to end, going on through interrupts.
   *
   * @return whether the calling thread was interrupted meanwhile (the caller restores the flag)
   */
  public static boolean join(Thread t, long millis) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join(millis);
        return interrupted;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
  }
}
