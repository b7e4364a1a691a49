package dev.berth.slurm;

import dev.berth.core.lifecycle.ClusterVerdict;
import java.util.Objects;
import java.util.Optional;

/**
 * How a Slurm job ended, as reported to the {@link dev.berth.spi.ExitListener} and kept on the
 * {@link SlurmExecution}.
 *
 * <p>The exit code is the program's own, read from the exit-code file the batch script writes, when
 * the file is there. Otherwise it follows the outcome:
 *
 * <table>
 *   <caption>Exit codes without an exit-code file</caption>
 *   <tr><th>outcome</th><th>exit code</th></tr>
 *   <tr><td>SUCCEEDED, FAILED</td><td>Slurm's: the code, or 128 + the signal (FAILED is never 0)</td></tr>
 *   <tr><td>HOST_OOM</td><td>{@value #MEMORY_KILL_EXIT} (128 + SIGKILL)</td></tr>
 *   <tr><td>TIMED_OUT, CANCELLED, UPSTREAM_NOT_MET</td><td>{@value #TERMINATED_EXIT} (128 + SIGTERM, what Slurm sends first)</td></tr>
 *   <tr><td>INFRASTRUCTURE</td><td>{@value #INFRASTRUCTURE_EXIT} (EX_TEMPFAIL: try again)</td></tr>
 * </table>
 *
 * @param jobId the job
 * @param state the last state Slurm reported; {@link SlurmState#UNKNOWN} when Slurm forgot the job
 * @param outcome what it means for the attempt
 * @param exitCode the code given to the exit listener
 * @param fromExitCodeFile whether the code is the program's, read from the exit-code file
 * @param reason for people, e.g. {@code "Slurm job 10 TIMEOUT (TimeLimit): killed at its time limit"}
 */
public record SlurmEnding(
    SlurmJobId jobId, SlurmState state, SlurmOutcome outcome, int exitCode, boolean fromExitCodeFile, String reason) {

  /** The code of a memory kill when the program's own code is unknown. */
  public static final int MEMORY_KILL_EXIT = 128 + 9;
  /** The code of a time-out or cancellation when the program's own code is unknown. */
  public static final int TERMINATED_EXIT = 128 + 15;
  /** The code of an infrastructure failure or a lost job when the program's own code is unknown. */
  public static final int INFRASTRUCTURE_EXIT = 75;

  /** Validates. */
  public SlurmEnding {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(reason, "reason");
    if (!Objects.requireNonNull(outcome, "outcome").isTerminal()) {
      throw new IllegalArgumentException("an ending needs a terminal outcome, not " + outcome);
    }
  }

  /**
   * Whether the attempt should count against the task's retry budget: not for infrastructure failures,
   * and not for a job that never ran because its dependency can never be met.
   */
  public boolean countsAgainstRetries() {
    return outcome != SlurmOutcome.INFRASTRUCTURE && outcome != SlurmOutcome.UPSTREAM_NOT_MET;
  }

  /**
   * What the cluster says about this ending beyond the exit code: infrastructure failures, memory
   * kills, time-outs, dependencies that can never be met, cancellations Berth did not ask for, and
   * failures that were not memory kills (Slurm enforces {@code --mem} and records its kills, so a job
   * that died by SIGKILL without such a record, exit code 137, is not out of memory). Programs that
   * succeeded, and cancellations Berth asked for, have nothing to add.
   *
   * @param cancelledByBerth whether this Berth cancelled the job ({@link SlurmExecution#terminate})
   */
  public Optional<ClusterVerdict> verdict(boolean cancelledByBerth) {
    ClusterVerdict.Kind kind = switch (outcome) {
      case INFRASTRUCTURE -> ClusterVerdict.Kind.INFRASTRUCTURE;
      case HOST_OOM -> ClusterVerdict.Kind.HOST_OOM;
      case TIMED_OUT -> ClusterVerdict.Kind.TIMED_OUT;
      case UPSTREAM_NOT_MET -> ClusterVerdict.Kind.UPSTREAM_NOT_MET;
      case CANCELLED -> cancelledByBerth ? null : ClusterVerdict.Kind.CANCELLED;
      case FAILED -> ClusterVerdict.Kind.FAILED;
      case SUCCEEDED, RUNNING -> null;
    };
    return Optional.ofNullable(kind).map(k -> new ClusterVerdict(k, reason));
  }
}
