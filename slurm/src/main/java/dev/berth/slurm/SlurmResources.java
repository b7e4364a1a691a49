package dev.berth.slurm;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.Resources;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.spi.LaunchRequest;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one job asks of Slurm, taken from the task: memory, cores, GPUs and the time limit.
 *
 * @param memoryBytes host memory; 0 leaves it to the cluster's default ({@code DefMemPerCPU})
 * @param milliCpus cores in thousandths; rounded up to whole cores, at least one
 * @param gpu whole GPUs or a GPU-memory share; a pin to one device or targets cannot be honoured on Slurm
 * @param timeout the attempt's time limit, rounded up to whole minutes
 */
public record SlurmResources(long memoryBytes, long milliCpus, GpuRequest gpu, Optional<Duration> timeout) {

  /** One core, the cluster's default memory, no GPU, no time limit of its own. */
  public static final SlurmResources DEFAULT = new SlurmResources(0, 1000, GpuRequest.NONE, Optional.empty());

  /** Validates. */
  public SlurmResources {
    new Resources(memoryBytes, milliCpus);
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(timeout, "timeout");
  }

  /** The resources {@code task} asks for. */
  public static SlurmResources of(TaskSpec task) {
    return new SlurmResources(task.resources().memoryBytes(), task.resources().milliCpus(), task.gpu(),
        task.find(TaskKeys.TIMEOUT));
  }

  /**
   * What one attempt asks of Slurm: the scheduler's reservation for it ({@link LaunchRequest#reservation()},
   * grown after an out-of-memory ending) for memory, cores and GPU memory, {@link LaunchRequest#gpus()} for
   * whole GPUs, and {@code task}'s time limit. A request with nothing reserved (no memory, no cores, no
   * GPU) asks for {@code task}'s own resources.
   */
  public static SlurmResources forAttempt(LaunchRequest request, SlurmResources task) {
    Placement reserved = request.reservation();
    if (reserved.memoryBytes() == 0 && reserved.milliCpus() == 0 && reserved.gpuMemoryBytes() == 0
        && request.gpus() == 0) {
      return task;
    }
    GpuRequest gpu = request.gpus() > 0 ? GpuRequest.whole(request.gpus())
        : reserved.gpuMemoryBytes() > 0 ? GpuRequest.share(reserved.gpuMemoryBytes()) : GpuRequest.NONE;
    return new SlurmResources(reserved.memoryBytes(), reserved.milliCpus(), gpu, task.timeout());
  }

}
