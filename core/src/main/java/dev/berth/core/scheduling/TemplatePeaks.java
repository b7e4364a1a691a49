package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskSpec;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The measured peaks of each template's finished tasks, and which of its tasks ran out of memory:
 * a fold over the tasks' events, kept by {@link RunState#apply}, so a resumed run that replays its
 * journal holds exactly what the first one did. A template is the entry tasks were expanded from
 * ({@link TaskSpec#template()}) within one group. {@link Requests} reads it. Not thread-safe.
 */
final class TemplatePeaks {

  /** What is known of one template. */
  static final class Family {
    private final TemplateKeys keys = new TemplateKeys();
    private final LearningRule host = new LearningRule(keys);
    private final LearningRule gpu = new LearningRule(keys);
    private final SortedSet<TaskRecord> hostOoms = new TreeSet<>(RunState.START_ORDER);
    private final SortedSet<TaskRecord> gpuOoms = new TreeSet<>(RunState.START_ORDER);

    /** Tasks of the template that ran out of host memory at least once. */
    SortedSet<TaskRecord> hostOoms() {
      return Collections.unmodifiableSortedSet(hostOoms);
    }

    /** Tasks of the template that ran out of GPU memory at least once. */
    SortedSet<TaskRecord> gpuOoms() {
      return Collections.unmodifiableSortedSet(gpuOoms);
    }

    /** What the template's host memory peaks teach a task with these values, from at least {@code minimum} peaks. */
    Optional<LearnedPeak> hostLearned(SortedMap<String, String> params, int minimum) {
      return host.learn(params, minimum);
    }

    /** What the template's GPU memory peaks teach a task with these values, from at least {@code minimum} peaks. */
    Optional<LearnedPeak> gpuLearned(SortedMap<String, String> params, int minimum) {
      return gpu.learn(params, minimum);
    }
  }

  /**
   * A learned request before it meets the task's declared estimate.
   *
   * @param bytes the quantile of the peaks times the margin
   * @param fromTasks how many peaks it was learned from
   * @param basis the parameter values those tasks share with the task, empty for the whole template
   */
  record LearnedPeak(long bytes, int fromTasks, String basis) {}

  private final SortedMap<String, Family> families = new TreeMap<>();

  /** Counts a task in its template. */
  void member(TaskSpec task) {
    family(task).keys.member(task.params());
  }

  /** The template of {@code task}. */
  Family family(TaskSpec task) {
    return families.computeIfAbsent(task.group() + "\u0000" + task.template(), k -> new Family());
  }

  /** Takes what an event says about memory: a success's measured peaks, or an out-of-memory. */
  void record(TaskRecord r, TaskEvent event) {
    // The template is looked up only for the few events that teach it something: every event of
    // every task passes here.
    if (event instanceof TaskEvent.Ended end && end.outcome() == Outcome.SUCCEEDED) {
      MeasuredUsage usage = end.usage();
      if (usage.peakHostMemoryBytes().isPresent() || usage.peakGpuMemoryBytes().isPresent()) {
        Family f = family(r.spec());
        usage.peakHostMemoryBytes().ifPresent(peak -> f.host.add(r.spec().params(), peak));
        usage.peakGpuMemoryBytes().ifPresent(peak -> f.gpu.add(r.spec().params(), peak));
      }
    } else if (event instanceof TaskEvent.Ended end && end.outcome() == Outcome.HOST_OOM) {
      family(r.spec()).hostOoms.add(r);
    } else if (event instanceof TaskEvent.Ended end && end.outcome() == Outcome.GPU_OOM
        || event instanceof TaskEvent.Reported rep && rep.outcome() == Outcome.GPU_OOM) {
      family(r.spec()).gpuOoms.add(r);
    }
  }
}
