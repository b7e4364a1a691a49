package dev.berth.session;

import dev.berth.runtime.control.CancelRequests;
import dev.berth.runtime.control.RunLock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The Berth that runs a run folder, as another process reaches it ({@code berth cancel}, the
 * dashboard): whether one holds the folder's lock, and asking it to cancel tasks through the
 * request folder it watches.
 */
public final class LiveRuns {

  private LiveRuns() {}

  /** Who holds the run folder's lock (its pid and start), or empty when no live run holds it. */
  public static Optional<String> holder(Path runDir) throws IOException {
    return RunLock.holder(runDir);
  }

  /** Whether a live run holds the folder; false too when that cannot be read. */
  public static boolean isLive(Path runDir) {
    try {
      return holder(runDir).isPresent();
    } catch (IOException e) {
      return false;
    }
  }

  /** The file whose lock a live run holds, to name in errors. */
  public static Path lockFile(Path runDir) {
    return RunLock.file(runDir);
  }

  /**
   * Asks the Berth running the run in {@code runDir} (or inside its Slurm allocation) to cancel these
   * tasks (ids, globs, {@code group:NAME}; the whole run when none), for {@code reason}.
   */
  public static void cancel(Path runDir, List<String> tasks, String reason) throws IOException {
    CancelRequests.submit(runDir, new CancelRequests.Request(tasks, reason));
  }
}
