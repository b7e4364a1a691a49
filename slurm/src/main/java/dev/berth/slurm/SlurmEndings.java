package dev.berth.slurm;

import java.util.Locale;
import java.util.OptionalInt;

/** Decides a job's {@link SlurmEnding} from what Slurm and the job's files say. Pure. */
final class SlurmEndings {

  private SlurmEndings() {}

  /**
   * The ending of a job Slurm reports in a terminal state.
   *
   * @param state the terminal state
   * @param slurmReason squeue's or sacct's reason column, e.g. {@code TimeLimit}
   * @param exit how Slurm saw the batch script end
   * @param fileCode the program's code from the exit-code file, if written
   * @param memoryKilled whether Slurm's messages for the job report a memory kill
   * @param dependencyNeverMet whether Slurm says it cancelled the job because a dependency can never be met
   */
  static SlurmEnding of(
      SlurmJobId job, SlurmState state, String slurmReason, SlurmExit exit, OptionalInt fileCode,
      boolean memoryKilled, boolean dependencyNeverMet) {
    SlurmOutcome outcome = state.outcome();
    if (outcome == SlurmOutcome.FAILED && memoryKilled) {
      outcome = SlurmOutcome.HOST_OOM;
    }
    if (outcome == SlurmOutcome.CANCELLED && dependencyNeverMet && fileCode.isEmpty()) {
      outcome = SlurmOutcome.UPSTREAM_NOT_MET;
    }
    int code;
    if (fileCode.isPresent()) {
      code = fileCode.getAsInt();
      if (outcome == SlurmOutcome.SUCCEEDED || outcome == SlurmOutcome.FAILED) {
        outcome = code == 0 ? SlurmOutcome.SUCCEEDED : SlurmOutcome.FAILED;
      }
    } else {
      code = switch (outcome) {
        case SUCCEEDED -> exit.asExitCode();
        case FAILED -> exit.asExitCode() == 0 ? 1 : exit.asExitCode();
        case HOST_OOM -> SlurmEnding.MEMORY_KILL_EXIT;
        case TIMED_OUT, CANCELLED, UPSTREAM_NOT_MET -> SlurmEnding.TERMINATED_EXIT;
        case INFRASTRUCTURE -> SlurmEnding.INFRASTRUCTURE_EXIT;
        case RUNNING -> throw new IllegalArgumentException("job " + job + " is still " + state);
      };
    }
    String because = slurmReason.isBlank() || slurmReason.equals("None") ? "" : " (" + slurmReason + ")";
    String reason = "Slurm job " + job + " " + state + because + ": " + explain(outcome, state, exit, fileCode)
        + (memoryKilled && state == SlurmState.FAILED ? " (Exceeded job memory limit)" : "");
    return new SlurmEnding(job, state, outcome, code, fileCode.isPresent(), reason);
  }

  /**
   * The ending of a job neither squeue nor sacct knows any more: the exit-code file's code when the
   * program wrote one, else a lost job to run again.
   */
  static SlurmEnding forgotten(SlurmJobId job, OptionalInt fileCode, boolean memoryKilled) {
    if (fileCode.isPresent()) {
      int code = fileCode.getAsInt();
      SlurmOutcome outcome = code == 0 ? SlurmOutcome.SUCCEEDED
          : memoryKilled && code == SlurmEnding.MEMORY_KILL_EXIT ? SlurmOutcome.HOST_OOM : SlurmOutcome.FAILED;
      return new SlurmEnding(job, SlurmState.UNKNOWN, outcome, code, true,
          "Slurm job " + job + " is no longer known to squeue or sacct; its exit-code file says " + code);
    }
    return new SlurmEnding(job, SlurmState.UNKNOWN, SlurmOutcome.INFRASTRUCTURE, SlurmEnding.INFRASTRUCTURE_EXIT,
        false, "Slurm job " + job + " is no longer known to squeue or sacct and wrote no exit code: lost");
  }

  /**
   * The ending of an array element that Slurm no longer lists while it lists the rest of its array: it
   * was cancelled while pending, which leaves no record of the element (it only leaves the array's
   * pending range). A job that wrote its exit code ran after all, and ends with that code.
   */
  static SlurmEnding droppedWhilePending(SlurmJobId job, OptionalInt fileCode) {
    if (fileCode.isPresent()) {
      return forgotten(job, fileCode, false);
    }
    return new SlurmEnding(job, SlurmState.CANCELLED, SlurmOutcome.CANCELLED, SlurmEnding.TERMINATED_EXIT, false,
        "Slurm job " + job + " CANCELLED: cancelled while it was pending (its array lists it no more)");
  }

  /** Whether Slurm's messages for a job report that it was killed for its memory use. */
  static boolean mentionsMemoryKill(String slurmMessages) {
    String s = slurmMessages.toLowerCase(Locale.ROOT);
    return s.contains("exceeded job memory limit") || s.contains("exceeded memory limit")
        || s.contains("oom-kill") || s.contains("oom_kill");
  }

  private static String explain(SlurmOutcome outcome, SlurmState state, SlurmExit exit, OptionalInt fileCode) {
    return switch (outcome) {
      case SUCCEEDED -> "exited with 0";
      case FAILED -> fileCode.isPresent() ? "exited with " + fileCode.getAsInt()
          : exit.signal() > 0 ? "killed by signal " + exit.signal() : "exited with " + exit.code();
      case HOST_OOM -> "killed for using more memory than it asked for";
      case TIMED_OUT -> state == SlurmState.DEADLINE ? "ended at its deadline" : "killed at its time limit";
      case CANCELLED -> "cancelled";
      case UPSTREAM_NOT_MET -> "cancelled by Slurm because a dependency can never be met";
      case INFRASTRUCTURE -> switch (state) {
        case NODE_FAIL -> "a node of the job failed";
        case BOOT_FAIL -> "the job's nodes failed to boot";
        case PREEMPTED -> "preempted by another job";
        default -> "ended by the cluster";
      } + "; run it again";
      case RUNNING -> "still running";
    };
  }
}
