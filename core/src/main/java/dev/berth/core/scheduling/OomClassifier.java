package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import java.util.List;
import java.util.Optional;

/**
 * Tells an out-of-memory death from other failures, from evidence only: the ending attempt's own
 * standard error, and what the attempt was measured to use. Pure. GPU messages are checked first:
 * PyTorch's {@code OutOfMemoryError} would otherwise look like Java's.
 *
 * <p>A bare SIGKILL is not evidence: anyone may send one. It counts as a host OOM only when the
 * attempt was measured to reach its reservation (the likeliest victim of the kernel's OOM killer).
 * A host memory message counts unless the attempt was measured and stayed under half its
 * reservation: then the allocation that failed was out of all proportion with what the task used
 * (Python's {@code bytearray(10**15)}), and a bigger reservation would fail the same way. A kill
 * for memory recorded by a cgroup or a cluster reaches the scheduler as a
 * {@link dev.berth.core.lifecycle.ClusterVerdict} instead.
 */
public final class OomClassifier {

  /** SIGKILL, which is how the kernel's OOM killer ends a process. */
  public static final int KILLED_BY_SIGKILL = 128 + 9;

  private static final List<String> GPU = List.of(
      "CUDA out of memory", "torch.OutOfMemoryError", "torch.cuda.OutOfMemoryError", "CUBLAS_STATUS_ALLOC_FAILED",
      "CUDNN_STATUS_ALLOC_FAILED", "cudaErrorMemoryAllocation", "RESOURCE_EXHAUSTED: OOM");
  private static final List<String> HOST = List.of(
      "MemoryError", "java.lang.OutOfMemoryError", "std::bad_alloc", "Cannot allocate memory",
      "Exceeded job memory limit", "oom-kill");

  private OomClassifier() {}

  /**
   * The kind of out-of-memory death the messages alone show, if any, with nothing measured.
   *
   * @param exitCode the exit status (128 + n for death by signal n)
   * @param stderrTail the end of the ending attempt's standard error, or empty
   */
  public static Optional<Outcome> classify(int exitCode, String stderrTail) {
    return classify(exitCode, stderrTail, MeasuredUsage.NONE, 0);
  }

  /**
   * The kind of out-of-memory death, if the evidence shows one.
   *
   * @param exitCode the exit status (128 + n for death by signal n)
   * @param stderrTail the end of the ending attempt's own standard error, or empty
   * @param usage what the attempt was measured to use
   * @param reservedBytes the host memory the attempt had reserved
   */
  public static Optional<Outcome> classify(int exitCode, String stderrTail, MeasuredUsage usage, long reservedBytes) {
    if (exitCode == 0) {
      return Optional.empty();
    }
    String tail = stderrTail == null ? "" : stderrTail;
    if (GPU.stream().anyMatch(tail::contains)) {
      return Optional.of(Outcome.GPU_OOM);
    }
    boolean said = HOST.stream().anyMatch(tail::contains);
    if (said && !farBelowReservation(usage, reservedBytes)) {
      return Optional.of(Outcome.HOST_OOM);
    }
    if (exitCode == KILLED_BY_SIGKILL && reachedReservation(usage, reservedBytes)) {
      return Optional.of(Outcome.HOST_OOM);
    }
    return Optional.empty();
  }

  /** Whether the attempt was measured to use at least its whole reservation. */
  public static boolean reachedReservation(MeasuredUsage usage, long reservedBytes) {
    return reservedBytes > 0 && usage.peakHostMemoryBytes().isPresent()
        && usage.peakHostMemoryBytes().getAsLong() >= reservedBytes;
  }

  private static boolean farBelowReservation(MeasuredUsage usage, long reservedBytes) {
    return reservedBytes > 0 && usage.peakHostMemoryBytes().isPresent()
        && usage.peakHostMemoryBytes().getAsLong() < reservedBytes / 2;
  }
}
