package dev.berth.core.lifecycle;

import java.util.Objects;

/**
 * What a cluster says about how an attempt ended, beyond its exit code: a local process has only
 * its exit code, but a batch system knows whether it killed the job for memory or time, whether a
 * node died under it, or whether it dropped the job because a dependency handed to it can no
 * longer be met.
 *
 * @param kind what happened
 * @param reason for people, e.g. {@code "Slurm job 12 NODE_FAIL: the node failed"}
 */
public record ClusterVerdict(Kind kind, String reason) {

  /** The endings a cluster can tell apart. */
  public enum Kind {
    /** The cluster's fault (a node failed or the job was preempted): run again without counting. */
    INFRASTRUCTURE,
    /**
     * The job never ran because a dependency the cluster held for Berth can no longer be met (a
     * parent's attempt failed): the task waits for its dependencies again, without counting.
     */
    UPSTREAM_NOT_MET,
    /** Killed at its memory limit. */
    HOST_OOM,
    /** Killed at its time limit. */
    TIMED_OUT,
    /** Cancelled by someone other than this Berth (an administrator, another scancel). */
    CANCELLED,
    /**
     * The job failed on its own (an exit code or a signal), and the cluster, which enforces its memory
     * limit and records a memory kill, recorded none: not a host out-of-memory ending, even when the
     * job died by SIGKILL (exit code 137).
     */
    FAILED
  }

  /** Validates. */
  public ClusterVerdict {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
  }
}
