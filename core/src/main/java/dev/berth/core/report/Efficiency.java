package dev.berth.core.report;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.Learned;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.scheduling.LearningRule;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run reserved against what its tasks used: per task, per template and in total. A fold over
 * the tasks' histories that counts only attempts that ended with something measured; the others
 * are counted as not measured, so the figures never guess.
 *
 * @param attempts attempts that ended
 * @param measuredAttempts of those, the ones something measured
 * @param memory host memory, in byte-seconds: each measured attempt's reservation, and its peak, held
 *     for its wall time
 * @param gpuMemory GPU memory, in byte-seconds, likewise (attempts that reserved none add nothing)
 * @param cpu cores, in core-seconds: reserved cores times wall time against CPU seconds used
 * @param templates per template, in run order
 * @param tasks per task with a measured attempt, in run order
 */
public record Efficiency(
    int attempts, int measuredAttempts, Use memory, Use gpuMemory, Use cpu, List<TemplateUse> templates,
    List<TaskUse> tasks) {

  /** Nothing ended yet. */
  public static final Efficiency NONE =
      new Efficiency(0, 0, Use.ZERO, Use.ZERO, Use.ZERO, List.of(), List.of());

  /** Copies the lists. */
  public Efficiency {
    templates = List.copyOf(templates);
    tasks = List.copyOf(tasks);
  }

  /**
   * Reserved against used, in one unit (byte-seconds or core-seconds).
   *
   * @param reserved what was reserved
   * @param used what was used
   */
  public record Use(double reserved, double used) {

    /** Nothing. */
    public static final Use ZERO = new Use(0, 0);

    /** Both sums. */
    Use plus(Use other) {
      return new Use(reserved + other.reserved, used + other.used);
    }

    /** Reserved but not used (never negative: a task that used more than it reserved wasted nothing). */
    public double wasted() {
      return Math.max(0, reserved - used);
    }

    /** The wasted share of what was reserved, from 0 to 1; 0 when nothing was reserved. */
    public double wastedShare() {
      return reserved <= 0 ? 0 : wasted() / reserved;
    }
  }

  /**
   * One task, from its last measured attempt.
   *
   * @param id the task
   * @param group its group
   * @param template the entry it was expanded from
   * @param requestedMemoryBytes host memory that attempt reserved
   * @param peakMemoryBytes its measured peak, or -1 when not measured
   * @param requestedGpuMemoryBytes GPU memory it reserved
   * @param peakGpuMemoryBytes its measured GPU peak, or -1 when not measured
   * @param cpus cores it reserved
   * @param cpuSeconds CPU seconds it used, or -1 when not measured
   * @param wallSeconds how long it ran
   * @param learned how its requests were learned ({@link Learned#describe()}), or null when declared
   */
  public record TaskUse(
      String id, String group, String template, long requestedMemoryBytes, long peakMemoryBytes,
      long requestedGpuMemoryBytes, long peakGpuMemoryBytes, double cpus, double cpuSeconds, double wallSeconds,
      String learned) {

    /** Host memory reserved but not used at the peak, or 0 when unknown. */
    public long wastedMemoryBytes() {
      return peakMemoryBytes < 0 ? 0 : Math.max(0, requestedMemoryBytes - peakMemoryBytes);
    }
  }

  /**
   * The tasks of one template together.
   *
   * @param group their group
   * @param template the entry they were expanded from
   * @param tasks how many have a measured attempt
   * @param largestRequestBytes the largest host memory one of them reserved
   * @param p95PeakBytes the 95th percentile of their peaks by nearest rank, or -1 when none was measured
   * @param maxPeakBytes the largest peak, or -1
   * @param memory host memory in byte-seconds, reserved against used
   */
  public record TemplateUse(
      String group, String template, int tasks, long largestRequestBytes, long p95PeakBytes, long maxPeakBytes,
      Use memory) {}

  /** Folds every task's attempts. */
  public static Efficiency of(RunState state) {
    int attempts = 0;
    int measured = 0;
    Use memory = Use.ZERO;
    Use gpu = Use.ZERO;
    Use cpu = Use.ZERO;
    List<TaskUse> tasks = new ArrayList<>();
    Map<String, List<TaskUse>> byTemplate = new LinkedHashMap<>();
    Map<String, Use> templateMemory = new LinkedHashMap<>();
    for (TaskRecord r : state.tasks()) {
      TaskUse last = null;
      Use taskMemory = Use.ZERO;
      for (Attempt a : r.history().attempts()) {
        if (a.end().isEmpty()) {
          continue;
        }
        attempts++;
        MeasuredUsage u = a.usage();
        if (!u.isKnown()) {
          continue;
        }
        measured++;
        // the attempt's run, by the cluster's accounting when it has one: its wait in the queue reserved nothing
        double wall = Duration.between(a.ranFrom(), a.ranUntil().orElseThrow()).toMillis() / 1000.0;
        long peak = u.peakHostMemoryBytes().orElse(-1);
        long gpuPeak = u.peakGpuMemoryBytes().orElse(-1);
        double cpus = a.placement().milliCpus() / 1000.0;
        double used = u.cpuSeconds().orElse(-1);
        if (peak >= 0) {
          taskMemory = taskMemory.plus(new Use(a.placement().memoryBytes() * wall, peak * wall));
        }
        if (gpuPeak >= 0) {
          gpu = gpu.plus(new Use(a.placement().gpuMemoryBytes() * wall, gpuPeak * wall));
        }
        if (used >= 0) {
          cpu = cpu.plus(new Use(cpus * wall, used));
        }
        last = new TaskUse(r.spec().id().value(), r.spec().group(), r.spec().template(), a.placement().memoryBytes(),
            peak, a.placement().gpuMemoryBytes(), gpuPeak, cpus, used, wall, learnedNote(r, a.number()));
      }
      if (last != null) {
        tasks.add(last);
        String key = r.spec().group() + "\u0000" + r.spec().template();
        byTemplate.computeIfAbsent(key, k -> new ArrayList<>()).add(last);
        templateMemory.merge(key, taskMemory, Use::plus);
        memory = memory.plus(taskMemory);
      }
    }
    List<TemplateUse> templates = new ArrayList<>();
    byTemplate.forEach((key, uses) -> templates.add(template(uses, templateMemory.get(key))));
    return new Efficiency(attempts, measured, memory, gpu, cpu, templates, tasks);
  }

  private static TemplateUse template(List<TaskUse> uses, Use memory) {
    List<Long> peaks = uses.stream().map(TaskUse::peakMemoryBytes).filter(p -> p >= 0).sorted().toList();
    long p95 = peaks.isEmpty() ? -1 : LearningRule.quantile(peaks);
    long max = peaks.isEmpty() ? -1 : peaks.get(peaks.size() - 1);
    long request = uses.stream().mapToLong(TaskUse::requestedMemoryBytes).max().orElse(0);
    TaskUse first = uses.get(0);
    return new TemplateUse(first.group(), first.template(), uses.size(), request, p95, max, memory);
  }

  /** What the launch of attempt {@code number} says was learned, or null. */
  private static String learnedNote(TaskRecord r, int number) {
    for (TaskEvent e : r.history().events()) {
      if (e instanceof TaskEvent.Launched l && l.attempt() == number && !l.learned().isEmpty()) {
        return String.join("; ", l.learned().stream().map(Learned::describe).toList());
      }
    }
    return null;
  }
}
