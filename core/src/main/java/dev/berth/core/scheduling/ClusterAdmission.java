package dev.berth.core.scheduling;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.resources.Refusal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Admission when a cluster decides where and when tasks run ({@code scheduler.executor: slurm}).
 * This machine's CPUs, memory and GPUs are not the tasks', so no ledger applies: every ready task is
 * submitted with its reservation (its memory, or {@code scheduler.default-memory}, grown after each
 * memory kill; its GPU memory, grown after each CUDA out-of-memory), and the cluster queues it, up
 * to a number of the run's jobs in the cluster's hands at once, pending or running: the smallest
 * {@link JobLimit} of {@code slurm.max-jobs}, {@code scheduler.max-process} and those the cluster
 * told or taught by refusing a job. The rest wait in Berth with that limit as their reason. A group
 * may cap its own jobs too ({@link GroupJobs}); its tasks past that wait with the group's cap as reason.
 *
 * <p>A task may also be submitted before its dependencies are met, so that a submitted graph keeps
 * flowing if Berth stops: when the unmet part of its {@code after} edge is "these parents succeed"
 * and those parents are already submitted, the cluster is asked to hold the task until they succeed
 * ({@link Decision.Start#upstream()}). Edges on failure or on any ending are held by Berth, because
 * a failed attempt that Berth will retry is not yet a failed task; so are {@code follow} edges and
 * edges on tasks not yet submitted. So are edges on matrix tasks, which may be elements of a job
 * array: Slurm drops an element cancelled while it is pending and counts {@code afterok} on it as
 * met, so a dependant held by the cluster would start although its parent never ran. Pure.
 */
final class ClusterAdmission {

  private final Requests requests;
  /** The limits the run's settings set, in the order they are named when equal. */
  private final List<JobLimit> settings;

  ClusterAdmission(Requests requests, SchedulerConfig config) {
    this.requests = requests;
    List<JobLimit> limits = new ArrayList<>();
    if (config.maxJobs() > 0) {
      limits.add(new JobLimit(config.maxJobs(), "slurm.max-jobs"));
    }
    if (config.maxProcess() > 0) {
      // Run-wide on a cluster too: the run's jobs pending or running, arrays and single jobs alike.
      limits.add(new JobLimit(config.maxProcess(), "scheduler.max-process"));
    }
    this.settings = List.copyOf(limits);
  }

  /**
   * The limit that binds in this pass: the smallest of the settings' and {@code cluster}'s that hold
   * at {@code pass.now} (the first named on a tie); the pass is due again when a passing one ends.
   */
  Optional<JobLimit> binding(List<JobLimit> cluster, Pass pass) {
    JobLimit smallest = null;
    List<JobLimit> all = new ArrayList<>(settings);
    all.addAll(cluster);
    for (JobLimit limit : all) {
      if (!limit.holdsAt(pass.now)) {
        continue;
      }
      limit.until().ifPresent(pass::wakeAt);
      if (smallest == null || limit.jobs() < smallest.jobs()) {
        smallest = limit;
      }
    }
    return Optional.ofNullable(smallest);
  }

  /**
   * The parents a queued or ready task may be submitted ahead of, when its only unmet edge is an
   * {@code after} edge on the success of parents already submitted; empty when Berth must hold it.
   */
  static Optional<Dependency> ahead(TaskRecord r, RunState state, Set<TaskId> starting) {
    if (r.spec().twoStage() || r.spec().follow().map(d -> status(d, state) != DependencyCheck.Status.MET).orElse(false)) {
      return Optional.empty();
    }
    Optional<Dependency> after = r.spec().after();
    if (after.isEmpty() || !after.get().success() || after.get().failure()) {
      return Optional.empty();
    }
    Dependency d = after.get();
    if (status(d, state) != DependencyCheck.Status.PENDING) {
      return Optional.empty();
    }
    List<TaskId> submitted = new ArrayList<>();
    for (TaskId parent : d.tasks()) {
      TaskRecord p = state.task(parent);
      TaskState s = p.state();
      if ((s.hasProcess() || starting.contains(parent)) && p.spec().params().isEmpty()) {
        submitted.add(parent);
      } else if (d.all() && !s.isTerminal()) {
        // a parent not submitted yet has no job to wait for, and one that may be an array element
        // is waited for here
        return Optional.empty();
      }
    }
    return submitted.isEmpty() ? Optional.empty() : Optional.of(new Dependency(submitted, d.all(), true, false));
  }

  /** What {@link #admit} decided. */
  enum Verdict {
    /** The task starts in this pass. */
    STARTED,
    /** The task ends in this pass (it fails, or its dependencies can never be met). */
    SETTLED,
    /** The task waits for its dependencies. */
    WAIT
  }

  /**
   * Decides for one ready task: start it (perhaps ahead of its parents, those running or in
   * {@code starting}), settle it, or let it wait, also for {@code limit} (see {@link #binding}) or its
   * group's cap, counted in {@code groups}.
   */
  Verdict admit(TaskRecord r, RunState state, Set<TaskId> starting, Optional<JobLimit> limit, GroupJobs groups,
      List<Decision> actions, List<Waiting> waiting) {
    TaskId id = r.spec().id();
    if (r.spec().twoStage()) {
      actions.add(new Decision.Fail(id, "a two-stage task cannot run as a single Slurm job: its load and train"
          + " hand-off needs Berth on the task's node; use slurm.mode: allocation"));
      return Verdict.SETTLED;
    }
    Optional<Dependency> upstream = Optional.empty();
    for (Optional<Dependency> edge : List.of(r.spec().after(), r.spec().follow())) {
      if (edge.isEmpty()) {
        continue;
      }
      DependencyCheck.Evaluation e = state.evaluate(edge.get());
      if (e.status() == DependencyCheck.Status.IMPOSSIBLE) {
        // Known only now: the cluster held this task for parents whose attempts have since failed for good.
        actions.add(Decision.Settle.unmet(id, e));
        return Verdict.SETTLED;
      }
      if (e.status() == DependencyCheck.Status.PENDING) {
        upstream = ahead(r, state, starting);
        if (upstream.isEmpty()) {
          return Verdict.WAIT; // Berth holds it until its parents end, or are submitted
        }
      }
    }
    int jobs = state.running().size() + starting.size();
    if (limit.isPresent() && jobs >= limit.get().jobs()) {
      waiting.add(new Waiting(id, List.of(Refusal.clusterJobs(limit.get().jobs(), jobs, limit.get().rule()))));
      return Verdict.WAIT;
    }
    Optional<Refusal> groupFull = groups.refusal(r);
    if (groupFull.isPresent()) {
      waiting.add(new Waiting(id, List.of(groupFull.get())));
      return Verdict.WAIT;
    }
    groups.submitted(r);
    Requests.Request memory = requests.memory(r, state, Long.MAX_VALUE);
    Requests.Request gpu = requests.gpuMemory(r, state, Long.MAX_VALUE);
    long gpuMemory = r.spec().gpu().wantsGpu() ? gpu.bytes() : 0;
    Placement placement = new Placement(Placement.CLUSTER, memory.bytes(), r.spec().resources().milliCpus(), gpuMemory);
    actions.add(new Decision.Start(id, r.history().attemptCount() + 1, placement, upstream,
        Requests.learned(memory, gpu, gpuMemory)));
    return Verdict.STARTED;
  }

  private static DependencyCheck.Status status(Dependency d, RunState state) {
    return state.evaluate(d).status();
  }
}
