package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.resources.DeviceBudget;
import dev.berth.core.resources.HostBudget;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Refusal;
import dev.berth.core.units.DurationText;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what to start, end and kill. A pure function of the run state, a resource snapshot and
 * {@code now}: it reads no clock, starts no thread and does no I/O, and ties always break by
 * priority then submission order. The runtime calls it after every event and carries out what it
 * returns.
 *
 * <p>One pass:
 * <ol>
 *   <li>Queued tasks whose turn has come (their group is the active one, or groups run in
 *       parallel) are released when their {@code after} and {@code follow} edges are met, settled
 *       as unreachable (or cancelled) when an edge can never be met or they must follow tasks that
 *       ran on different GPUs, and timed out when they waited
 *       longer than their {@code queue-timeout}.
 *   <li>Ready tasks that no host state could ever admit fail at once; ready tasks still inside a
 *       retry delay wait for it; the others are admitted in start order against a
 *       {@link HostBudget}, reserving as it goes. A task that does not fit does not stop the scan:
 *       smaller tasks behind it may still fit (no head-of-line blocking).
 *   <li>Running attempts past their {@code timeout} are killed.
 * </ol>
 * Each pass also says when the next one is due without any event ({@link Decisions#wakeAt()}).
 * Not thread-safe; call from one thread.
 */
public final class Scheduler {

  private final SchedulerConfig config;
  private final Attempts attempts;
  private final Requests requests;
  private final ClusterAdmission cluster;
  /** Whether a pass has looked at every ready task (see {@link #admitReady}). */
  private boolean lookedAtAll;

  /** A scheduler applying this configuration. */
  public Scheduler(SchedulerConfig config) {
    this.config = config;
    this.attempts = new Attempts(config);
    this.requests = new Requests(config, attempts);
    this.cluster = config.onCluster() ? new ClusterAdmission(requests, config) : null;
  }

  /** Runs one decision pass. Does not change {@code state}. */
  public Decisions decide(RunState state, HostSnapshot snapshot, Instant now) {
    return decide(state, snapshot, now, Set.of());
  }

  /**
   * Runs one decision pass that leaves out the ready and loaded tasks in {@code heldBack}: those
   * whose starts (or trains) the host ledger refused moments ago, in an earlier pass of the same
   * round. What this pass would have planned for them counts against no task after them: each of
   * those then asks for itself, and waits, if it does, for a reason that is its own.
   */
  public Decisions decide(RunState state, HostSnapshot snapshot, Instant now, Set<TaskId> heldBack) {
    return decide(state, snapshot, now, heldBack, List.of());
  }

  /**
   * Runs one decision pass as {@link #decide(RunState, HostSnapshot, Instant, Set)}, where on a cluster
   * the run's jobs also stay within {@code clusterLimits}: what the cluster told of its limits, and
   * what its refusals taught (those with an end are due again then).
   */
  public Decisions decide(RunState state, HostSnapshot snapshot, Instant now, Set<TaskId> heldBack,
      List<JobLimit> clusterLimits) {
    Pass pass = new Pass(now, heldBack);
    List<TaskRecord> released = releaseQueued(state, pass);
    if (cluster != null) {
      submitReady(state, released, pass, cluster.binding(clusterLimits, pass));
      return pass.decisions();
    }
    DeviceBudget devices = DeviceBudget.of(config, snapshot, state, pass.now);
    Processes processes = scanProcesses(state, pass);
    WaitingGpuAsks asks = new WaitingGpuAsks(List.of(processes.loaded(), state.ready(), released));
    trainLoaded(processes.loaded(), state, devices, asks, snapshot.elsewhere().untoldRefusal(), pass);
    admitReady(state, snapshot, devices, asks, released, processes.loading(), pass);
    killOverdue(state, pass);
    return pass.decisions();
  }

  /** The configuration this scheduler applies. */
  public SchedulerConfig config() {
    return config;
  }

  private List<TaskRecord> releaseQueued(RunState state, Pass pass) {
    List<TaskRecord> released = new ArrayList<>();
    int active = state.activeGroup();
    boolean parallel = state.spec().groupsInParallel();
    for (TaskRecord r : state.queued()) {
      if (!parallel && r.groupIndex() > active) {
        pass.waiting.add(Waiting.forTurn(r.spec().id(), state.spec().groups().get(active).name()));
        continue;
      }
      Optional<Unmet> blocked = firstNotMet(r, state);
      Optional<String> conflict = blocked.isEmpty() ? DeviceRules.followConflict(r, state) : Optional.empty();
      if (conflict.isPresent()) {
        pass.actions.add(new Decision.Settle(r.spec().id(), TaskState.UNREACHABLE, conflict.get()));
        continue;
      }
      if (blocked.isEmpty()) {
        pass.actions.add(new Decision.Release(r.spec().id()));
        released.add(r);
        continue;
      }
      DependencyCheck.Evaluation e = blocked.get().evaluation();
      if (e.status() == DependencyCheck.Status.IMPOSSIBLE) {
        pass.actions.add(Decision.Settle.unmet(r.spec().id(), e));
        continue;
      }
      if (QueueTimeouts.pendingTimedOut(r, state.pendingSince(r), pass)) {
        continue;
      }
      pass.waiting.add(Waiting.forEdge(r.spec().id(), blocked.get().edge()));
      if (cluster != null) {
        pass.held.add(r); // may yet go to the cluster ahead of its parents, see submitReady
      }
    }
    return released;
  }

  /** An edge of a task that is not met, and where it stands. */
  private record Unmet(Dependency edge, DependencyCheck.Evaluation evaluation) {}

  /** The first edge of the task that is not met (impossible edges win over pending ones), if any. */
  private static Optional<Unmet> firstNotMet(TaskRecord r, RunState state) {
    Unmet pending = null;
    for (Optional<Dependency> d : List.of(r.spec().after(), r.spec().follow())) {
      if (d.isEmpty()) {
        continue;
      }
      DependencyCheck.Evaluation e = state.evaluate(d.get());
      if (e.status() == DependencyCheck.Status.IMPOSSIBLE) {
        return Optional.of(new Unmet(d.get(), e));
      }
      if (e.status() == DependencyCheck.Status.PENDING && pending == null) {
        pending = new Unmet(d.get(), e);
      }
    }
    return Optional.ofNullable(pending);
  }

  /** Attempts' endings and reservations as the history has them. */
  public Attempts attempts() {
    return attempts;
  }

  /** What each task asks for now: declared, learned or grown after running out. */
  public Requests requests() {
    return requests;
  }

  /**
   * The tasks that have a process, looked at once: what a two-stage task that reported (finished,
   * failed, out of memory) does next, the loaded tasks that wait for a device, in start order, and
   * fedflow's "waiting" count (started but not training), which max-waiting caps.
   */
  private Processes scanProcesses(RunState state, Pass pass) {
    List<TaskRecord> loaded = new ArrayList<>();
    int loading = 0;
    for (TaskId id : state.running().keySet()) {
      TaskRecord r = state.task(id);
      attempts.afterReport(r).ifPresent(pass.actions::add);
      TaskState s = r.state();
      if (s == TaskState.LOADED) {
        loaded.add(r);
      }
      if (s == TaskState.AVAILABLE || s == TaskState.LOADING || s == TaskState.LOADED) {
        loading++;
      }
    }
    loaded.sort(RunState.START_ORDER);
    return new Processes(loaded, loading);
  }

  private record Processes(List<TaskRecord> loaded, int loading) {}

  /**
   * Loaded two-stage tasks get devices before new tasks do, and never wait for a process slot:
   * their process already exists (fedflow deadlocks here when every slot holds a loaded task). While
   * the host ledger cannot tell what other runs hold ({@code untold}), none does: a device planned
   * here that the ledger then refuses would stand, in the reasons of the tasks after it, as memory
   * Berth reserved.
   */
  private void trainLoaded(List<TaskRecord> loaded, RunState state, DeviceBudget devices, WaitingGpuAsks asks,
      Optional<Refusal> untold, Pass pass) {
    for (TaskRecord r : loaded) {
      if (pass.heldBack.contains(r.spec().id())) {
        continue;
      }
      if (untold.isPresent()) {
        pass.waiting.add(new Waiting(r.spec().id(), List.of(untold.get())));
        continue;
      }
      var gpu = r.spec().gpu().withMemory(requests.gpuMemory(r, state, devices.maxShare()).bytes());
      DeviceBudget.Plan plan = devices.plan(gpu, DeviceRules.blacklist(r), DeviceRules.followDevice(r, state),
          asks.besides(r));
      if (plan.never().isPresent()) {
        pass.actions.add(new Decision.Exit(r.spec().id(), plan.never().get()));
        continue;
      }
      if (!plan.placed()) {
        pass.waiting.add(new Waiting(r.spec().id(), plan.refusals()));
        continue;
      }
      long gpuMemory = devices.commit(plan);
      pass.actions.add(new Decision.Train(r.spec().id(), Attempts.trains(r) + 1,
          new Placement(plan.deviceName(), 0, 0, gpuMemory)));
    }
  }

  /**
   * Admits ready tasks in start order. Once nothing more can start in this pass (no process slot, the
   * CPU-utilization gate, no core left), only the tasks behind that point whose verdict can change
   * without starting are still looked at: those with a queue-timeout or an earlier attempt (a retry
   * delay, an outgrown request) and those released in this very pass, whose requests are checked
   * against the host once, as they become ready. A fresh task checked then is counted as blocked
   * without being looked at again: what could make it never fit (its declared request, the host's
   * capacity) does not change while it waits. The first pass of a scheduler looks at every task,
   * so a resumed run checks what it inherited.
   */
  private void admitReady(RunState state, HostSnapshot snapshot, DeviceBudget devices, WaitingGpuAsks asks,
      List<TaskRecord> released, int waitingTwoStage, Pass pass) {
    java.util.Collection<TaskRecord> ordered = state.ready();
    if (!released.isEmpty()) {
      // Tasks released in this pass join the ready ones in start order; without any, the ready set
      // is already in order and is walked as it is, without a copy.
      List<TaskRecord> merged = new ArrayList<>(ordered);
      merged.addAll(released);
      merged.sort(RunState.START_ORDER);
      ordered = merged;
    }
    HostBudget host = HostBudget.of(config, snapshot, state.running());
    ReadyAdmission admission = new ReadyAdmission(config, attempts, requests, state, host, devices, asks, pass,
        waitingTwoStage);
    int careLeft = state.readyNeedingCare() + (int) released.stream().filter(RunState::needsCare).count();
    int seen = 0;
    for (TaskRecord r : ordered) {
      seen++;
      boolean care = RunState.needsCare(r);
      if (care) {
        careLeft--;
      } else if (careLeft == 0 && pass.blockedBy.isEmpty() && host.noCoreLeft().isPresent()) {
        // Every task from here on asks for cores and none is left: stop instead of refusing each in turn.
        pass.blockedBy = host.noCoreLeft();
        pass.blockedCount += ordered.size() - seen + 1;
        break;
      }
      if (pass.heldBack.contains(r.spec().id())) {
        continue;
      }
      admission.consider(r);
      if (pass.blockedBy.isPresent() && lookedAtAll) {
        int behind = ordered.size() - seen;
        List<TaskRecord> changing = changingBehind(r, state, released);
        changing.forEach(admission::consider);
        pass.blockedCount += behind - changing.size();
        break;
      }
    }
    lookedAtAll = true;
  }

  /**
   * The tasks after {@code last} in start order whose verdict in a blocked pass can differ from the
   * last pass's: ready ones with a queue-timeout or an earlier attempt, and those released now.
   */
  private static List<TaskRecord> changingBehind(TaskRecord last, RunState state, List<TaskRecord> released) {
    List<TaskRecord> changing = new ArrayList<>(state.readyChangingWhileWaiting().tailSet(last, false));
    for (TaskRecord r : released) {
      if (RunState.START_ORDER.compare(r, last) > 0 && !RunState.changesWhileWaiting(r)) {
        changing.add(r);
      }
    }
    changing.sort(RunState.START_ORDER);
    return changing;
  }

  /**
   * On a cluster: every ready task is submitted once its retry delay is over, and so is every task
   * whose unmet dependencies the cluster can hold for it, its parents being submitted already or in
   * this very pass (see {@link ClusterAdmission}). The cluster enforces each task's timeout through
   * the job's time limit, so no kill is decided here.
   */
  private void submitReady(RunState state, List<TaskRecord> released, Pass pass, Optional<JobLimit> limit) {
    List<TaskRecord> ordered = new ArrayList<>(state.ready());
    ordered.addAll(released);
    ordered.sort(RunState.START_ORDER);
    List<TaskRecord> ready = new ArrayList<>();
    for (TaskRecord r : ordered) {
      if (QueueTimeouts.sitsOut(r, pass)) {
        continue;
      }
      ready.add(r);
    }
    java.util.Set<TaskId> starting = new java.util.TreeSet<>();
    List<TaskRecord> held = new ArrayList<>(pass.held);
    List<Waiting> waiting = new ArrayList<>();
    GroupJobs groups = new GroupJobs(state);
    boolean progressed = true;
    while (progressed) {
      // A parent that starts in this pass is one the cluster can hold a dependant for, whatever the order.
      progressed = false;
      waiting.clear();
      for (java.util.Iterator<TaskRecord> it = ready.iterator(); it.hasNext(); ) {
        TaskRecord r = it.next();
        ClusterAdmission.Verdict v = cluster.admit(r, state, starting, limit, groups, pass.actions, waiting);
        if (v == ClusterAdmission.Verdict.STARTED) {
          starting.add(r.spec().id());
        }
        if (v != ClusterAdmission.Verdict.WAIT) {
          it.remove();
          progressed = true;
        }
      }
      for (java.util.Iterator<TaskRecord> it = held.iterator(); it.hasNext(); ) {
        TaskRecord r = it.next();
        if (ClusterAdmission.ahead(r, state, starting).isPresent()) {
          it.remove();
          pass.actions.add(new Decision.Release(r.spec().id()));
          ready.add(r);
          progressed = true;
        }
      }
    }
    pass.waiting.addAll(waiting);
  }

  /**
   * A timeout counts from the attempt's start: when its process began, or for a pool call, when its
   * engine began it (a call queued behind another, or waiting for an engine, is not timed yet).
   */
  private static void killOverdue(RunState state, Pass pass) {
    for (Map.Entry<TaskId, TaskEvent.Launched> e : state.running().entrySet()) {
      TaskRecord r = state.task(e.getKey());
      Optional<Duration> limit = r.spec().find(TaskKeys.TIMEOUT);
      if (limit.isEmpty()) {
        continue;
      }
      Optional<Instant> started = r.history().startedAt();
      if (started.isEmpty() && r.spec().get(TaskKeys.POOL) != null) {
        continue;
      }
      if (pass.due(started.orElse(e.getValue().at()).plus(limit.get()))) {
        pass.actions.add(new Decision.Kill(e.getKey(), Outcome.TIMED_OUT,
            "ran longer than its timeout of " + DurationText.format(limit.get())));
      }
    }
  }
}
