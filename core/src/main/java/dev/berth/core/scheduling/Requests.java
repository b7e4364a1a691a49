package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.Learned;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.scheduling.TemplatePeaks.Family;
import dev.berth.core.scheduling.TemplatePeaks.LearnedPeak;
import java.util.Optional;
import java.util.SortedSet;
import java.util.function.ToLongFunction;

/**
 * The one place the memory and GPU memory a task's next attempt reserves are decided, whether it
 * runs here or on a cluster. Pure: a function of the run's state, folded from its events.
 *
 * <p>A task that ran out of memory itself gets what its own out-of-memory retry rule gives
 * ({@link Attempts}). Otherwise, with {@code scheduler.learn-memory} (or {@code learn-gpu-memory})
 * on, the request starts from its declared estimate and
 * <ul>
 *   <li>falls to what the peaks of its template's finished tasks teach ({@link LearningRule}), never
 *       rising above the declared estimate that way;
 *   <li>rises, whatever it learned, to what the retry of any task of its template that ran out of
 *       that memory reserves: one out-of-memory raises the whole template at once.
 * </ul>
 * With learning off, a task reserves what it declared, grown only by its own out-of-memory retries.
 * Tasks that take whole GPUs learn no GPU memory.
 */
public final class Requests {

  private final SchedulerConfig config;
  private final Attempts attempts;

  /** Decides by these settings, growing out-of-memory retries as {@code attempts} does. */
  public Requests(SchedulerConfig config, Attempts attempts) {
    this.config = config;
    this.attempts = attempts;
  }

  /**
   * A reservation and, when it is not what the task declared because of learning, why.
   *
   * @param bytes what the attempt reserves
   * @param learned how it was learned or raised; empty when declared (or grown by the task's own out-of-memory)
   */
  public record Request(long bytes, Optional<Learned> learned) {}

  /** The host memory the task's next attempt reserves, at most {@code cap} unless it declared more. */
  public Request memory(TaskRecord r, RunState state, long cap) {
    long declared = r.spec().resources().memoryBytes();
    long own = attempts.memory(r, cap);
    if (!config.learnMemory()) {
      return new Request(own, Optional.empty());
    }
    Family f = state.templatePeaks().family(r.spec());
    Optional<LearnedPeak> peak = f.hostLearned(r.spec().params(), config.learnAfter());
    return decide(Learned.MEMORY, declared, own, Attempts.hostOoms(r) > 0, peak, f.hostOoms(), r,
        m -> attempts.memory(m, cap));
  }

  /**
   * The GPU memory the task's next placement reserves on a device, at most {@code cap} unless it
   * declared more. A follower that declares none reserves what the task it follows reserved on the
   * GPU it follows there (at most {@code cap}), and runs on that GPU.
   */
  public Request gpuMemory(TaskRecord r, RunState state, long cap) {
    long declared = r.spec().gpu().wantsGpu() ? r.spec().gpu().memoryBytes()
        : Math.min(DeviceRules.followShare(r, state), cap);
    long own = attempts.gpuMemory(r, declared, cap);
    if (!config.learnGpuMemory() || r.spec().gpu().wholeDevices() > 0 || !r.spec().gpu().wantsGpu()) {
      return new Request(own, Optional.empty());
    }
    Family f = state.templatePeaks().family(r.spec());
    Optional<LearnedPeak> peak = f.gpuLearned(r.spec().params(), config.learnAfter());
    return decide(Learned.GPU_MEMORY, declared, own, Attempts.gpuOoms(r) > 0, peak, f.gpuOoms(), r,
        m -> attempts.gpuMemory(m, cap));
  }

  /** What a start says was learned: the memory's note, and the GPU memory's when a GPU is reserved now. */
  public static java.util.List<Learned> learned(Request memory, Request gpuMemory, long gpuReserved) {
    java.util.List<Learned> notes = new java.util.ArrayList<>();
    memory.learned().ifPresent(notes::add);
    gpuMemory.learned().filter(l -> gpuReserved > 0).ifPresent(notes::add);
    return notes;
  }

  private static Request decide(String resource, long declared, long own, boolean ranOut, Optional<LearnedPeak> peak,
      SortedSet<TaskRecord> ooms, TaskRecord r, ToLongFunction<TaskRecord> retryOf) {
    long bytes = declared;
    Optional<Learned> learned = Optional.empty();
    if (peak.isPresent() && peak.get().bytes() < declared && declared > 0) {
      bytes = peak.get().bytes();
      learned = Optional.of(new Learned(resource, bytes, declared, peak.get().fromTasks(), peak.get().basis()));
    }
    for (TaskRecord m : ooms) {
      long raised = m == r ? 0 : retryOf.applyAsLong(m);
      if (raised > bytes) {
        bytes = raised;
        learned = raised == declared ? Optional.empty()
            : Optional.of(new Learned(resource, raised, declared, 0, m.spec().id().value()));
      }
    }
    if (ranOut && own >= bytes) {
      return new Request(own, Optional.empty());
    }
    return new Request(bytes, learned);
  }
}
