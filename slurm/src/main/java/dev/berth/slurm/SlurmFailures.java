package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import java.util.List;
import java.util.Locale;

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

  private SlurmFailures() {}

  /** Whether a squeue, sacct or scancel that ended so is worth running again. */
  static boolean transientQuery(CommandRunner.Result result) {
    return !result.succeeded() && (result.timedOut() || mentions(result, NOT_TAKEN) || mentions(result, ANSWER_LOST));
  }

  /** Whether an sbatch that ended so surely submitted nothing and is worth running again. */
  static boolean transientSubmission(CommandRunner.Result result) {
    return !result.succeeded() && !result.timedOut() && mentions(result, NOT_TAKEN) && !mentions(result, ANSWER_LOST);
  }

  private static boolean mentions(CommandRunner.Result result, List<String> messages) {
    String text = (result.stderr() + "\n" + result.stdout()).toLowerCase(Locale.ROOT);
    return messages.stream().anyMatch(text::contains);
  }
}
