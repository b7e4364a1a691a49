package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Tells a Slurm command's transient failures (worth trying again: the controller is restarting,
 * overloaded or rate-limiting) from permanent ones (a bad partition, an invalid option). Pure.
 *
 * <p>Slurm's commands exit 1 for nearly every error (scancel exits 8 when it cannot reach the controller),
 * so the exit code says little and the message decides. An sbatch that timed out, or whose answer was lost
 * on the way back, may have submitted the job; trying again could run the attempt twice, so for sbatch
 * only failures that happened before the controller took the request are transient.
 */
final class SlurmFailures {

  /** Messages meaning the request never reached a controller able to take it. */
  private static final List<String> NOT_TAKEN = List.of(
      "unable to contact slurm controller", "slurm controller not responding", "resource temporarily unavailable",
      "too many requests", "rate limit", "connection refused", "communication connection failure",
      "temporarily unable to accept job", "slurmctld is busy");
  /** Messages meaning the answer was lost: the request may or may not have been carried out. */
  private static final List<String> ANSWER_LOST = List.of(
      "socket timed out", "zero bytes were transmitted or received", "connection timed out", "timed out");
  /** A limit's name as Slurm gives it as a job's reason, other than a limit on submitted jobs. */
  private static final Pattern OTHER_LIMIT = Pattern.compile("\\b(?!\\w*SubmitJob)\\w+Limit\\b");

  private SlurmFailures() {}

  /** Whether a squeue, sacct or scancel that ended so is worth running again. */
  static boolean transientQuery(CommandRunner.Result result) {
    return !result.succeeded() && (result.timedOut() || mentions(result, NOT_TAKEN) || mentions(result, ANSWER_LOST));
  }

  /** Whether an sbatch that ended so surely submitted nothing and is worth running again. */
  static boolean transientSubmission(CommandRunner.Result result) {
    return !result.succeeded() && !result.timedOut() && mentions(result, NOT_TAKEN) && !mentions(result, ANSWER_LOST)
        && !queueFull(result.stderr() + "\n" + result.stdout());
  }

  /**
   * Whether sbatch refused a job, in {@code message}, for a limit on how many jobs the cluster holds: the
   * user's or the QOS's {@code MaxSubmitJobs} ({@code AssocMaxSubmitJobLimit},
   * {@code QOSMaxSubmitJobPerUserLimit}), the controller's {@code MaxJobCount} ("Slurm temporarily unable to
   * accept job"), or an accounting policy that names no other limit. Such a job waits in Berth for room,
   * rather than being tried again at once or failing: the queue fills with the user's other jobs too.
   */
  static boolean queueFull(String message) {
    String text = message.toLowerCase(Locale.ROOT);
    if (text.contains("maxsubmitjob") || text.contains("temporarily unable to accept job")) {
      return true;
    }
    // The same policy message comes with a size or time limit ("QOSMaxWallDurationPerJobLimit"): that
    // refusal is for good.
    return text.contains("job violates accounting/qos policy") && !OTHER_LIMIT.matcher(message).find();
  }

  private static boolean mentions(CommandRunner.Result result, List<String> messages) {
    String text = (result.stderr() + "\n" + result.stdout()).toLowerCase(Locale.ROOT);
    return messages.stream().anyMatch(text::contains);
  }
}
