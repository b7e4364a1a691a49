package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import dev.berth.os.DaemonThreads;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Cancels jobs with {@code scancel} on a thread of its own ({@code berth-slurm-cancel}), so that
 * {@link SlurmExecution#terminate} returns at once, then asks the tracker to look soon.
 */
final class JobCanceller {

  private final CommandRunner runner;
  private final SlurmSettings settings;
  private final JobTracker tracker;
  private final ExecutorService cancels =
      Executors.newSingleThreadExecutor(DaemonThreads.named("berth-slurm-cancel", false));

  JobCanceller(CommandRunner runner, SlurmSettings settings, JobTracker tracker) {
    this.runner = runner;
    this.settings = settings;
    this.tracker = tracker;
  }

  /** Cancels the job of {@code execution}; after {@link #close()}, on the calling thread. */
  void cancel(SlurmExecution execution) {
    Runnable scancel = () -> {
      try {
        runner.run(List.of("scancel", execution.jobId().value()), settings.commandTimeout());
      } catch (IOException e) {
        // the job runs on; the tracker still reports its end, and the caller may try again
      }
      tracker.soon();
    };
    try {
      cancels.execute(scancel);
    } catch (RejectedExecutionException closedMeanwhile) {
      scancel.run();
    }
  }

  /** Stops the cancel thread once the cancellations asked for are sent. */
  void close() {
    cancels.shutdown();
  }
}
