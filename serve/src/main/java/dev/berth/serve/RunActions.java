package dev.berth.serve;

import dev.berth.runtime.control.CancelRequests;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What the API's POSTs ask of a run, done as {@code berth cancel} and {@code berth retry} do it: a
 * cancel request the live run's watcher picks up, and a retry that runs {@code berth retry} anew.
 */
public interface RunActions {

  /** Asks the live run in {@code workdir} to cancel these tasks (ids, globs, group:NAME), all when none. */
  default void cancel(Path workdir, List<String> tasks, String reason) throws IOException {
    CancelRequests.submit(workdir, new CancelRequests.Request(tasks, reason));
  }

  /** Starts {@code berth retry} on the ended run in {@code workdir} for these tasks (all that did not succeed when none). */
  void retry(Path workdir, List<String> tasks) throws IOException;

  /** Cancels; refuses retries (for a server that has no way to start Berth). */
  RunActions CANCEL_ONLY = (workdir, tasks) -> {
    throw new IOException("this server cannot start berth retry");
  };
}
