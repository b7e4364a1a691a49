package dev.berth.slurm;

import dev.berth.os.DaemonThreads;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Cancels jobs with {@code scancel} on a thread of its own ({@code berth-slurm-cancel}), so that
 * {@link SlurmExecution#terminate} returns at once, then asks the tracker to look soon. An scancel that
 * fails transiently (the controller unreachable) is tried again through {@link CommandRetry}.
 */
final class JobCanceller {

  private final CommandRetry retry;
  private final JobTracker tracker;
  private final ExecutorService cancels =
      Executors.newSingleThreadExecutor(DaemonThreads.named("berth-slurm-cancel", false));

  JobCanceller(CommandRetry retry, JobTracker tracker) {
    this.retry = retry;
    this.tracker = tracker;
  }

  /** Cancels the job of {@code execution}; after {@link #close()}, on the calling thread. */
  void cancel(SlurmExecution execution) {
    Runnable scancel = () -> {
      try {
        retry.run(List.of("scancel", execution.jobId().value()), SlurmFailures::transientQuery);
      } catch (IOException e) {
        // the job runs on; the tracker still reports its end, and the caller may try again
      }
      tracker.soonFromElsewhere();
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
