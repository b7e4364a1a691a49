package dev.berth.slurm;

import java.util.Locale;

/**
 * Every job state Slurm reports (squeue's {@code %T}, sacct's {@code State}, {@code scontrol}'s
 * {@code JobState}), each mapped to a {@link SlurmOutcome} in one place. States this version does not
 * know parse to {@link #UNKNOWN}, which keeps the job tracked rather than guessing an ending.
 */
public enum SlurmState {
  /** Waiting for resources, dependencies or priority. */
  PENDING(SlurmOutcome.RUNNING),
  /** Allocated; the nodes are getting ready (for example booting). */
  CONFIGURING(SlurmOutcome.RUNNING),
  /** Running. */
  RUNNING(SlurmOutcome.RUNNING),
  /** Ending; some processes may still run, so the job is not over yet. */
  COMPLETING(SlurmOutcome.RUNNING),
  /** Exit code 0. */
  COMPLETED(SlurmOutcome.SUCCEEDED),
  /** Non-zero exit code or a signal; also a memory kill on clusters without cgroups. */
  FAILED(SlurmOutcome.FAILED),
  /** Killed by the cgroup memory limit. */
  OUT_OF_MEMORY(SlurmOutcome.HOST_OOM),
  /** Killed at the time limit. */
  TIMEOUT(SlurmOutcome.TIMED_OUT),
  /** Cancelled by a user, an administrator or {@code kill_invalid_depend}. */
  CANCELLED(SlurmOutcome.CANCELLED),
  /** A node of the allocation failed. */
  NODE_FAIL(SlurmOutcome.INFRASTRUCTURE),
  /** Preempted by a job of higher priority (and not requeued). */
  PREEMPTED(SlurmOutcome.INFRASTRUCTURE),
  /** The nodes could not be booted. */
  BOOT_FAIL(SlurmOutcome.INFRASTRUCTURE),
  /** Ended at its {@code --deadline}. */
  DEADLINE(SlurmOutcome.TIMED_OUT),
  /** Suspended by an administrator or gang scheduling; it resumes later. */
  SUSPENDED(SlurmOutcome.RUNNING),
  /** Stopped with SIGSTOP, keeping its CPUs. */
  STOPPED(SlurmOutcome.RUNNING),
  /** Being requeued; it runs again under the same job id. */
  REQUEUED(SlurmOutcome.RUNNING),
  /** Requeued and held until released. */
  REQUEUE_HOLD(SlurmOutcome.RUNNING),
  /** Requeued by a federation. */
  REQUEUE_FED(SlurmOutcome.RUNNING),
  /** Requeued and held in a special state set by the site's epilog; it runs again once released. */
  SPECIAL_EXIT(SlurmOutcome.RUNNING),
  /** Held because its reservation was deleted. */
  RESV_DEL_HOLD(SlurmOutcome.RUNNING),
  /** Changing size. */
  RESIZING(SlurmOutcome.RUNNING),
  /** Moved to a sibling cluster of a federation, where it goes on. */
  REVOKED(SlurmOutcome.RUNNING),
  /** Being signalled. */
  SIGNALING(SlurmOutcome.RUNNING),
  /** Staging out files after the program ended. */
  STAGE_OUT(SlurmOutcome.RUNNING),
  /** A state this version does not know; the job stays tracked. */
  UNKNOWN(SlurmOutcome.RUNNING);

  private final SlurmOutcome outcome;

  SlurmState(SlurmOutcome outcome) {
    this.outcome = outcome;
  }

  /** What the state means for the attempt. */
  public SlurmOutcome outcome() {
    return outcome;
  }

  /** Whether the job has ended. */
  public boolean isTerminal() {
    return outcome.isTerminal();
  }

  /**
   * Parses a state as Slurm prints it: {@code "RUNNING"}, sacct's {@code "CANCELLED by 0"}, a
   * truncated {@code "CANCELLED+"}, any case; unknown text gives {@link #UNKNOWN}.
   */
  public static SlurmState parse(String text) {
    if (text == null) {
      return UNKNOWN;
    }
    String s = text.strip();
    int space = s.indexOf(' ');
    if (space >= 0) {
      s = s.substring(0, space);
    }
    while (s.endsWith("+")) {
      s = s.substring(0, s.length() - 1);
    }
    try {
      return valueOf(s.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return UNKNOWN;
    }
  }
}
