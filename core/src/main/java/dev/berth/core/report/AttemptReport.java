package dev.berth.core.report;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.AttemptStage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.time.Instant;

/**
 * One attempt as reported.
 *
 * @param number 1-based
 * @param startedAt when its process started; for a cluster's job, when the job started by the cluster's
 *     accounting (its wait in the queue is not run time), else when it was submitted
 * @param finishedAt when it ended (for a cluster's job, by its accounting), or null while running
 * @param exitCode exit status, or null when the process never ran or still runs
 * @param device {@code "cpu"} or a GPU id
 * @param pid process id, or -1
 * @param clusterJob the cluster's id of the attempt (a Slurm job id), or null for a local process
 * @param reservedMemoryBytes host memory reserved
 * @param reservedGpuMemoryBytes GPU memory reserved
 * @param reservedCpus cores reserved
 * @param outcome how it ended (an {@link dev.berth.core.lifecycle.Outcome} name), or {@code RUNNING}
 * @param error what went wrong, or null
 * @param stage for a two-stage attempt that did not succeed, the stage it ended in ({@code LOAD} or {@code TRAIN}), or null
 * @param loadTimeMs for a two-stage task, how long loading took, or null
 * @param trainTimeMs for a two-stage task, how long its last train call took, or null
 * @param peakMemoryBytes the most host memory the attempt's processes were measured to hold, or null
 * @param cpuSeconds CPU time the attempt's processes were measured to use, or null
 * @param peakGpuMemoryBytes the most GPU memory the attempt was seen holding, or null
 * @param usageExact whether the figures are exact counters (a cgroup's, a cluster's accounting) rather
 *     than samples, or null when nothing was measured
 * @param stderrTail for the last attempt of a task that did not succeed, the last lines of that
 *     attempt's own standard error (control characters replaced), or null
 * @param trainCalls for a two-stage attempt, each time it was told to train, in order (more than one when
 *     it ran out of GPU memory training and trained again); empty for a one-stage attempt
 * @param cluster what the cluster's accounting recorded of the attempt's job (times, queue wait, nodes,
 *     state), or null for a local process and a job without accounting
 */
public record AttemptReport(
    int number,
    Instant startedAt,
    Instant finishedAt,
    Integer exitCode,
    String device,
    long pid,
    String clusterJob,
    long reservedMemoryBytes,
    long reservedGpuMemoryBytes,
    double reservedCpus,
    String outcome,
    String error,
    String stage,
    Long loadTimeMs,
    Long trainTimeMs,
    Long peakMemoryBytes,
    Double cpuSeconds,
    Long peakGpuMemoryBytes,
    Boolean usageExact,
    String stderrTail,
    List<TrainCall> trainCalls,
    ClusterReport cluster) {

  /** Copies the train calls; null means none. */
  public AttemptReport {
    trainCalls = trainCalls == null ? List.of() : List.copyOf(trainCalls);
  }

  /** An attempt without the cluster's accounting. */
  public AttemptReport(int number, Instant startedAt, Instant finishedAt, Integer exitCode, String device, long pid,
      String clusterJob, long reservedMemoryBytes, long reservedGpuMemoryBytes, double reservedCpus, String outcome,
      String error, String stage, Long loadTimeMs, Long trainTimeMs, Long peakMemoryBytes, Double cpuSeconds,
      Long peakGpuMemoryBytes, Boolean usageExact, String stderrTail, List<TrainCall> trainCalls) {
    this(number, startedAt, finishedAt, exitCode, device, pid, clusterJob, reservedMemoryBytes, reservedGpuMemoryBytes,
        reservedCpus, outcome, error, stage, loadTimeMs, trainTimeMs, peakMemoryBytes, cpuSeconds, peakGpuMemoryBytes,
        usageExact, stderrTail, trainCalls, null);
  }

  /** An attempt without train calls. */
  public AttemptReport(int number, Instant startedAt, Instant finishedAt, Integer exitCode, String device, long pid,
      String clusterJob, long reservedMemoryBytes, long reservedGpuMemoryBytes, double reservedCpus, String outcome,
      String error, String stage, Long loadTimeMs, Long trainTimeMs, Long peakMemoryBytes, Double cpuSeconds,
      Long peakGpuMemoryBytes, Boolean usageExact, String stderrTail) {
    this(number, startedAt, finishedAt, exitCode, device, pid, clusterJob, reservedMemoryBytes, reservedGpuMemoryBytes,
        reservedCpus, outcome, error, stage, loadTimeMs, trainTimeMs, peakMemoryBytes, cpuSeconds, peakGpuMemoryBytes,
        usageExact, stderrTail, List.of());
  }

  /** An attempt without measured usage. */
  public AttemptReport(int number, Instant startedAt, Instant finishedAt, Integer exitCode, String device, long pid,
      String clusterJob, long reservedMemoryBytes, long reservedGpuMemoryBytes, double reservedCpus, String outcome,
      String error, String stage, Long loadTimeMs, Long trainTimeMs) {
    this(number, startedAt, finishedAt, exitCode, device, pid, clusterJob, reservedMemoryBytes, reservedGpuMemoryBytes,
        reservedCpus, outcome, error, stage, loadTimeMs, trainTimeMs, null, null, null, null, null);
  }

  /** The same attempt with the last lines of its standard error. */
  public AttemptReport withStderrTail(String tail) {
    return new AttemptReport(number, startedAt, finishedAt, exitCode, device, pid, clusterJob, reservedMemoryBytes,
        reservedGpuMemoryBytes, reservedCpus, outcome, error, stage, loadTimeMs, trainTimeMs, peakMemoryBytes,
        cpuSeconds, peakGpuMemoryBytes, usageExact, tail, trainCalls, cluster);
  }

  /** A local attempt without stage information (a one-stage task). */
  public AttemptReport(int number, Instant startedAt, Instant finishedAt, Integer exitCode, String device, long pid,
      long reservedMemoryBytes, long reservedGpuMemoryBytes, double reservedCpus, String outcome, String error) {
    this(number, startedAt, finishedAt, exitCode, device, pid, null, reservedMemoryBytes, reservedGpuMemoryBytes,
        reservedCpus, outcome, error, null, null, null);
  }

  /** The report of a folded attempt. */
  public static AttemptReport of(Attempt a) {
    return of(a, List.of());
  }

  /**
   * The report of a folded attempt, with stage times and the failing stage taken from the task's
   * events during the attempt ({@code events} are all of the task's).
   */
  public static AttemptReport of(Attempt a, List<TaskEvent> events) {
    List<TaskEvent> own = AttemptStage.eventsOf(events, a.number());
    boolean failed = a.end().map(e -> e.outcome() != Outcome.SUCCEEDED).orElse(false);
    String stage = failed ? AttemptStage.after(own).orElse(null) : null;
    Instant loading = null;
    Long loadMs = null;
    Instant training = null;
    Long trainMs = null;
    String device = a.placement().device();
    long gpuMemory = a.placement().gpuMemoryBytes();
    List<TrainCall> calls = new ArrayList<>();
    for (TaskEvent e : own) {
      if (e instanceof TaskEvent.Staged s && s.target() == TaskState.LOADING) {
        loading = s.at();
      } else if (e instanceof TaskEvent.Staged s && s.target() == TaskState.LOADED && loading != null && loadMs == null) {
        loadMs = Duration.between(loading, s.at()).toMillis();
      } else if (e instanceof TaskEvent.Trained t) {
        training = t.at();
        device = t.placement().device();
        gpuMemory = t.placement().gpuMemoryBytes();
        calls.add(new TrainCall(t.train(), device, gpuMemory, t.at(), null, TrainCall.RUNNING, null));
      } else if (e instanceof TaskEvent.Staged s && s.target() == TaskState.TRAINED && training != null) {
        trainMs = Duration.between(training, s.at()).toMillis();
        endLastCall(calls, s.at(), TrainCall.TRAINED, null);
      } else if (e instanceof TaskEvent.Reported r && AttemptStage.TRAIN.equals(r.stage())) {
        endLastCall(calls, r.at(), r.outcome().name(), r.message());
      }
    }
    a.end().ifPresent(end -> endLastCall(calls, end.at(), end.outcome().name(), end.message()));
    return new AttemptReport(
        a.number(),
        a.ranFrom(),
        a.ranUntil().orElse(null),
        a.end().map(e -> e.exitCode()).orElse(null),
        device,
        a.pid(),
        a.clusterId().orElse(null),
        a.placement().memoryBytes(),
        gpuMemory,
        a.placement().milliCpus() / 1000.0,
        a.end().map(e -> e.outcome().name()).orElse("RUNNING"),
        a.end().map(e -> e.message()).orElse(null),
        stage,
        loadMs,
        trainMs,
        boxed(a.usage().peakHostMemoryBytes()),
        a.usage().cpuSeconds().isPresent() ? a.usage().cpuSeconds().getAsDouble() : null,
        boxed(a.usage().peakGpuMemoryBytes()),
        a.usage().isKnown() ? a.usage().exact() : null,
        null,
        calls,
        ClusterReport.of(a));
  }

  /** Ends the last train call when it has not ended yet. */
  private static void endLastCall(List<TrainCall> calls, Instant at, String outcome, String error) {
    int last = calls.size() - 1;
    if (last >= 0 && calls.get(last).finishedAt() == null) {
      calls.set(last, calls.get(last).endedWith(at, outcome, error));
    }
  }

  private static Long boxed(java.util.OptionalLong value) {
    return value.isPresent() ? value.getAsLong() : null;
  }
}
