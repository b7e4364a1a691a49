package dev.berth.spi;

import dev.berth.core.lifecycle.ClusterAccounting;
import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.MeasuredUsage;
import java.util.Optional;

/** A started task process. Methods may be called from any thread. */
public interface Execution {

  /** Operating-system process id, or -1 when the executor has none. */
  long pid();

  /** Whether the process is still running. */
  boolean isAlive();

  /**
   * Ends the process and every process it started: a polite termination signal first, then a
   * kill after the grace period. Returns at once; the exit is reported to the {@link ExitListener}.
   *
   * @param graceMillis time the process tree gets to exit after the polite signal
   */
  void terminate(long graceMillis);

  /** The id a cluster knows the attempt by (a Slurm job id such as {@code 23} or {@code 23_1}); empty locally. */
  default Optional<String> clusterId() {
    return Optional.empty();
  }

  /**
   * Once the exit was reported: what the cluster said about it beyond the exit code, if anything.
   * A local process has nothing to add.
   */
  default Optional<ClusterVerdict> verdict() {
    return Optional.empty();
  }

  /**
   * Whether the execution points the task's {@code stdout.log} and {@code stderr.log} at its attempt's
   * files itself, making them only when the attempt writes to them; by default Berth links them when
   * the attempt starts. An absent log reads as empty.
   */
  default boolean linksItsLogs() {
    return false;
  }

  /**
   * Once the exit was reported: what the attempt was measured to use (peak memory, CPU time), as
   * far as this executor measures it. Nothing by default.
   */
  default MeasuredUsage usage() {
    return MeasuredUsage.NONE;
  }

  /**
   * Once the exit was reported: what the cluster's accounting recorded of the attempt's job (its
   * times, node and state), when the cluster has accounting and recorded it. Empty locally.
   */
  default Optional<ClusterAccounting> accounting() {
    return Optional.empty();
  }
}
