package dev.berth.session;

import dev.berth.journal.SqliteJournal;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.runtime.gpu.NvmlGpuProbe;
import dev.berth.runtime.probe.OshiHostProbe;

/**
 * Loads, on two daemon threads, what a local run loads before its first task and what does not
 * depend on its spec: SQLite's native library and driver, NVML (or finds there is none), the C
 * library's spawn functions and OSHI's view of the machine. A command that runs tasks starts it
 * first thing, so this work overlaps the reading of its command line and spec; the session's parts,
 * made later, take what it loaded, or wait for what it is still loading. Each part is best effort: a
 * failure is met again, and reported, where the run uses that part.
 */
public final class Warmup {

  private static boolean begun;

  private Warmup() {}

  /**
   * Starts the warm-up, once per JVM. The spec is not read here: the command reaches its spec as
   * soon as this starts, and a warm-up read of its own only held the command's read up.
   */
  public static synchronized void begin() {
    if (begun) {
      return;
    }
    begun = true;
    // Two threads: on one, the session waited for the probes behind SQLite, which it needs earlier;
    // the probes mostly wait for the system (a library search, /proc). The journal's spec codec is
    // left to the session: made here too, it held the session's own use of it up.
    start("berth-warmup", () -> quietly(SqliteJournal::prepare));
    start("berth-warmup-probes", () -> {
      quietly(NvmlGpuProbe::prepare);
      quietly(LocalProcessExecutor::prepare);
      quietly(OshiHostProbe::prepare);
    });
  }

  private static void start(String name, Runnable work) {
    Thread t = new Thread(work, name);
    t.setDaemon(true);
    t.start();
  }

  private static void quietly(Runnable part) {
    try {
      part.run();
    } catch (RuntimeException | LinkageError e) {
      // met again where the run uses this part, and reported there
    }
  }
}
