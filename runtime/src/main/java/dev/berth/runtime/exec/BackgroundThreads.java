package dev.berth.runtime.exec;

import com.sun.jna.LastErrorException;

/**
 * Lowers a thread of Berth's own that only prepares for later (code warmed up for the run's end, say)
 * to the lowest CPU priority, so it runs on what the run's loop, its launches and its tasks leave
 * idle instead of taking their share.
 */
public final class BackgroundThreads {

  /** The nice value of a thread that should only use idle CPU time. */
  static final int NICEST = 19;

  private BackgroundThreads() {}

  /**
   * Gives the calling thread nice value 19, where Berth binds the C library (Linux with glibc 2.34 or
   * later, see {@code LibC}); elsewhere, or when the system refuses, the thread keeps its priority.
   */
  public static void lowerCurrent() {
    if (!LibC.BOUND) {
      return;
    }
    try {
      LibC.setpriority(LibC.PRIO_PROCESS, 0, NICEST);
    } catch (LastErrorException refused) {
      // the thread keeps its priority: only time is at stake
    }
  }
}
