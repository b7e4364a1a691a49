package dev.berth.slurm;

/** What a Slurm job state means for the Berth attempt it runs. */
public enum SlurmOutcome {
  /** Still in Slurm's hands: pending, running, completing, suspended or requeued. */
  RUNNING,
  /** The program exited with 0. */
  SUCCEEDED,
  /** The program exited non-zero or died by a signal Berth did not send. */
  FAILED,
  /** Killed for using more host memory than the job asked for. */
  HOST_OOM,
  /** Killed at the job's time limit or deadline. */
  TIMED_OUT,
  /** Cancelled, by Berth ({@code scancel}) or an administrator. */
  CANCELLED,
  /**
   * Never ran: Slurm cancelled the job because a dependency can never be met (a parent ended in a way
   * the dependency does not accept), or Berth did not submit it for the same reason. Wait for the
   * dependencies again without counting the attempt against the task's retry budget.
   */
  UPSTREAM_NOT_MET,
  /**
   * Ended by the cluster, not the program: a node failed, a node did not boot, the job was preempted,
   * or Slurm forgot the job. Retry without counting the attempt against the task's retry budget.
   */
  INFRASTRUCTURE;

  /** Whether the job has ended. */
  public boolean isTerminal() {
    return this != RUNNING;
  }
}
