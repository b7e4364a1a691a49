package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.Outcome;
import java.util.List;
import java.util.Optional;

/**
 * Tells an out-of-memory death from other failures, from the exit status and the tail of the
 * task's standard error. Pure. GPU messages are checked first: PyTorch's {@code OutOfMemoryError}
 * would otherwise look like Java's.
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
   * The kind of out-of-memory death, if it was one.
   *
   * @param exitCode the exit status (128 + n for death by signal n)
   * @param stderrTail the end of the task's standard error, or empty
   */
  public static Optional<Outcome> classify(int exitCode, String stderrTail) {
    if (exitCode == 0) {
      return Optional.empty();
    }
    String tail = stderrTail == null ? "" : stderrTail;
    if (GPU.stream().anyMatch(tail::contains)) {
      return Optional.of(Outcome.GPU_OOM);
    }
    if (exitCode == KILLED_BY_SIGKILL || HOST.stream().anyMatch(tail::contains)) {
      return Optional.of(Outcome.HOST_OOM);
    }
    return Optional.empty();
  }
}
