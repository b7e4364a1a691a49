package dev.berth.core.report;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What happened in a run: a fold over every task's history, so it can be rebuilt at any time.
 *
 * @param run run name
 * @param status how the run ended
 * @param startedAt when the run started
 * @param finishedAt when it ended, or null while it runs
 * @param totals counts of all tasks by status
 * @param groups groups in run order
 * @param devices the GPUs the run could use (empty on a CPU-only run)
 * @param efficiency what the run reserved against what its tasks were measured to use
 * @param revisions the changes of the spec the run went on with, oldest first (empty when it ran the spec it started with)
 */
public record RunReport(
    String run, RunStatus status, Instant startedAt, Instant finishedAt, Totals totals, List<GroupReport> groups,
    List<DeviceReport> devices, Efficiency efficiency, List<Revision> revisions) {

  /** Copies the lists. */
  public RunReport {
    groups = List.copyOf(groups);
    devices = List.copyOf(devices);
    java.util.Objects.requireNonNull(efficiency, "efficiency");
    revisions = List.copyOf(revisions);
  }

  /** A report of a run whose spec never changed. */
  public RunReport(
      String run, RunStatus status, Instant startedAt, Instant finishedAt, Totals totals, List<GroupReport> groups,
      List<DeviceReport> devices, Efficiency efficiency) {
    this(run, status, startedAt, finishedAt, totals, groups, devices, efficiency, List.of());
  }

  /** A report with nothing measured. */
  public RunReport(
      String run, RunStatus status, Instant startedAt, Instant finishedAt, Totals totals, List<GroupReport> groups,
      List<DeviceReport> devices) {
    this(run, status, startedAt, finishedAt, totals, groups, devices, Efficiency.NONE);
  }

  /** A report of a run without GPUs. */
  public RunReport(
      String run, RunStatus status, Instant startedAt, Instant finishedAt, Totals totals, List<GroupReport> groups) {
    this(run, status, startedAt, finishedAt, totals, groups, List.of());
  }

  /** The same report with these devices. */
  public RunReport withDevices(List<DeviceReport> list) {
    return new RunReport(run, status, startedAt, finishedAt, totals, groups, list, efficiency, revisions);
  }

  /** The same report with this efficiency. */
  public RunReport withEfficiency(Efficiency e) {
    return new RunReport(run, status, startedAt, finishedAt, totals, groups, devices, e, revisions);
  }

  /** The same report with these revisions of the run's spec. */
  public RunReport withRevisions(List<Revision> list) {
    return new RunReport(run, status, startedAt, finishedAt, totals, groups, devices, efficiency, list);
  }

  /**
   * The same report with, on the last attempt of each task that did not succeed, the last lines of
   * that attempt's standard error as {@code tailOf} reads them (empty or null: none).
   */
  public RunReport withFailureTails(BiFunction<TaskReport, AttemptReport, String> tailOf) {
    List<GroupReport> withTails = new ArrayList<>();
    for (GroupReport g : groups) {
      List<TaskReport> tasks = new ArrayList<>();
      for (TaskReport t : g.tasks()) {
        if (t.status() == TaskStatus.SUCCEEDED || t.attempts().isEmpty()) {
          tasks.add(t);
          continue;
        }
        List<AttemptReport> attempts = new ArrayList<>(t.attempts());
        AttemptReport last = attempts.get(attempts.size() - 1);
        String tail = tailOf.apply(t, last);
        attempts.set(attempts.size() - 1, last.withStderrTail(tail == null || tail.isBlank() ? null : tail));
        tasks.add(t.withAttempts(attempts));
      }
      withTails.add(new GroupReport(g.name(), g.totals(), tasks));
    }
    return new RunReport(run, status, startedAt, finishedAt, totals, withTails, devices, efficiency, revisions);
  }

  /**
   * Folds a run's state into its report.
   *
   * @param cancelled whether the run was cancelled
   * @param workdirOf the working folder of each task, as it should be shown
   */
  public static RunReport of(
      RunState state, Instant startedAt, Instant finishedAt, boolean cancelled, Function<TaskSpec, String> workdirOf) {
    return of(state, startedAt, finishedAt, cancelled ? RunStatus.CANCELLED : null, workdirOf);
  }

  /**
   * Folds a run's state into its report.
   *
   * @param stoppedAs {@link RunStatus#CANCELLED} or {@link RunStatus#INTERRUPTED} when the run was
   *     stopped so, or null: then it is {@code SUCCEEDED} when every task succeeded, else {@code FAILED}
   * @param workdirOf the working folder of each task, as it should be shown
   */
  public static RunReport of(
      RunState state, Instant startedAt, Instant finishedAt, RunStatus stoppedAs, Function<TaskSpec, String> workdirOf) {
    List<GroupReport> groups = new ArrayList<>();
    List<TaskReport> all = new ArrayList<>();
    int i = 0;
    List<TaskRecord> records = state.tasks();
    for (GroupSpec g : state.spec().groups()) {
      List<TaskReport> tasks = new ArrayList<>();
      for (int k = 0; k < g.tasks().size(); k++) {
        TaskRecord r = records.get(i++);
        tasks.add(TaskReport.of(r, workdirOf.apply(r.spec())));
      }
      groups.add(new GroupReport(g.name(), Totals.of(tasks), tasks));
      all.addAll(tasks);
    }
    Totals totals = Totals.of(all);
    RunStatus status = stoppedAs != null
        ? stoppedAs
        : totals.succeeded() == totals.total() ? RunStatus.SUCCEEDED : RunStatus.FAILED;
    return new RunReport(state.spec().name(), status, startedAt, finishedAt, totals, groups, List.of(),
        Efficiency.of(state));
  }
}
