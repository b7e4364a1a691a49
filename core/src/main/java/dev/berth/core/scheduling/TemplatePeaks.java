package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The measured peaks of each template's finished tasks, and which of its tasks ran out of memory:
 * a fold over the tasks' events, kept by {@link RunState#apply}, so a resumed run that replays its
 * journal holds exactly what the first one did. A template is the entry tasks were expanded from
 * ({@link TaskSpec#template()}) within one group. {@link Requests} reads it. Not thread-safe.
 */
final class TemplatePeaks {

  /** One finished task's peak, with the parameter values it ran with. */
  record Sample(SortedMap<String, String> params, long peak) {}

  /** What is known of one template. */
  static final class Family {
    private final List<SortedMap<String, String>> members = new ArrayList<>();
    private final List<Sample> host = new ArrayList<>();
    private final List<Sample> gpu = new ArrayList<>();
    private final SortedSet<TaskRecord> hostOoms = new TreeSet<>(RunState.START_ORDER);
    private final SortedSet<TaskRecord> gpuOoms = new TreeSet<>(RunState.START_ORDER);
    private final SortedMap<String, Optional<LearnedPeak>> hostMemo = new TreeMap<>();
    private final SortedMap<String, Optional<LearnedPeak>> gpuMemo = new TreeMap<>();

    /** The parameter values of every task of the template, finished or not. */
    List<SortedMap<String, String>> members() {
      return Collections.unmodifiableList(members);
    }

    /** Host memory peaks of the template's tasks that succeeded, in the order they ended. */
    List<Sample> hostPeaks() {
      return Collections.unmodifiableList(host);
    }

    /** GPU memory peaks of the template's tasks that succeeded, in the order they ended. */
    List<Sample> gpuPeaks() {
      return Collections.unmodifiableList(gpu);
    }

    /** Tasks of the template that ran out of host memory at least once. */
    SortedSet<TaskRecord> hostOoms() {
      return Collections.unmodifiableSortedSet(hostOoms);
    }

    /** Tasks of the template that ran out of GPU memory at least once. */
    SortedSet<TaskRecord> gpuOoms() {
      return Collections.unmodifiableSortedSet(gpuOoms);
    }

    /** What the template's host peaks teach a task with these values, computed once per new peak. */
    Optional<LearnedPeak> hostLearned(SortedMap<String, String> params, Function<Family, Optional<LearnedPeak>> rule) {
      return hostMemo.computeIfAbsent(params.toString(), k -> rule.apply(this));
    }

    /** What the template's GPU peaks teach a task with these values, computed once per new peak. */
    Optional<LearnedPeak> gpuLearned(SortedMap<String, String> params, Function<Family, Optional<LearnedPeak>> rule) {
      return gpuMemo.computeIfAbsent(params.toString(), k -> rule.apply(this));
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
    family(task).members.add(task.params());
  }

  /** The template of {@code task}. */
  Family family(TaskSpec task) {
    return families.computeIfAbsent(task.group() + "\u0000" + task.template(), k -> new Family());
  }

  /** Takes what an event says about memory: a success's measured peaks, or an out-of-memory. */
  void record(TaskRecord r, TaskEvent event) {
    Family f = family(r.spec());
    if (event instanceof TaskEvent.Ended end && end.outcome() == Outcome.SUCCEEDED) {
      MeasuredUsage usage = end.usage();
      add(f.host, f.hostMemo, r, usage.peakHostMemoryBytes());
      add(f.gpu, f.gpuMemo, r, usage.peakGpuMemoryBytes());
    } else if (event instanceof TaskEvent.Ended end && end.outcome() == Outcome.HOST_OOM) {
      f.hostOoms.add(r);
    } else if (event instanceof TaskEvent.Ended end && end.outcome() == Outcome.GPU_OOM
        || event instanceof TaskEvent.Reported rep && rep.outcome() == Outcome.GPU_OOM) {
      f.gpuOoms.add(r);
    }
  }

  private static void add(List<Sample> peaks, SortedMap<String, ?> memo, TaskRecord r, OptionalLong peak) {
    if (peak.isPresent()) {
      peaks.add(new Sample(r.spec().params(), peak.getAsLong()));
      memo.clear();
    }
  }
}
