package dev.berth.runtime.engine;

import dev.berth.core.model.Dependency;
import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskPattern;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.DeviceReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.Endings;
import dev.berth.core.scheduling.Retries;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Scheduler;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.LogTails;
import dev.berth.protocol.ControlCommand;
import dev.berth.runtime.gpu.NoGpuProbe;
import dev.berth.runtime.report.ReportWriter;
import dev.berth.spi.Execution;
import dev.berth.spi.Executor;
import dev.berth.spi.ExitListener;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.HostProbe;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Timers;
import dev.berth.spi.Upstream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * Runs one {@link RunSpec} to the end: the runtime half of Berth, which carries out what the
 * {@link Scheduler} decides.
 *
 * <p>Event-driven: process exits, probe ticks and cancellation arrive as messages in an inbox; one
 * loop thread applies each batch of messages to the {@link RunState} and then asks the scheduler
 * what to do, so a freed slot is refilled as soon as the exit is seen, never after a sleep. Only
 * the loop thread touches the state. {@link #run()} is the loop; tests drive it step by step with
 * {@link #start()} and {@link #drain()}.
 */
public final class Engine {

  private static final long TERMINATE_GRACE_MILLIS = 5_000;

  private static final GpuProbe NO_GPUS = new NoGpuProbe();

  private final RunState state;
  private final Scheduler scheduler;
  private final RunLayout layout;
  private final Executor executor;
  private final HostProbe probe;
  private final GpuTracker gpus;
  private final InstantSource clock;
  private final Timers timers;
  private final RunListener listener;
  private final BlockingQueue<Runnable> inbox = new LinkedBlockingQueue<>();
  private final Map<TaskId, Execution> executions = new TreeMap<>();
  private final Map<TaskId, Decision.Kill> killing = new TreeMap<>();
  private final Set<TaskId> exiting = new TreeSet<>();
  private final TwoStageChannel channel;
  private HostSnapshot snapshot;
  private Instant startedAt;
  private String cancelReason;
  private Timers.Cancellable tick;
  private Timers.Cancellable wake;
  private Instant wakeAt;
  private RunResult result;
  private boolean open;
  private Journal journal = Journals.NONE;
  private Function<RunSpec, String> specEncoder;
  private boolean specGrew;
  private Journal.Replay restored;
  private final List<Runnable> unannounced = new ArrayList<>();

  /** An engine for a run on a host without GPUs. */
  public Engine(
      RunSpec spec, RunLayout layout, Executor executor, HostProbe probe, InstantSource clock, Timers timers,
      RunListener listener) {
    this(spec, layout, executor, probe, NO_GPUS, clock, timers, listener);
  }

  /** An engine for one run; nothing happens until {@link #start()} or {@link #run()}. */
  public Engine(
      RunSpec spec, RunLayout layout, Executor executor, HostProbe probe, GpuProbe gpuProbe, InstantSource clock,
      Timers timers, RunListener listener) {
    this.gpus = new GpuTracker(gpuProbe);
    this.channel = new TwoStageChannel(layout.runDir(), inbox::add, new TwoStageChannel.Handler() {
      @Override
      public void record(TaskId task, TaskEvent event) {
        Engine.this.record(task, event);
      }

      @Override
      public TaskRecord task(TaskId task) {
        return state.task(task);
      }

      @Override
      public Path taskDir(TaskId task) {
        return Engine.this.layout.taskDir(state.task(task).spec());
      }

      @Override
      public Instant now() {
        return Engine.this.clock.instant();
      }
    });
    this.state = new RunState(spec);
    this.scheduler = new Scheduler(spec.config());
    this.layout = layout;
    this.executor = executor;
    this.probe = probe;
    this.clock = clock;
    this.timers = timers;
    this.listener = listener;
  }

  /**
   * Records every event in this journal, flushed before the event is acted on or shown. The caller
   * has already started the journal (or, when resuming, opened it). Call before starting.
   */
  public Engine journal(Journal j) {
    if (startedAt != null) {
      throw new IllegalStateException("the journal must be set before the run starts");
    }
    this.journal = j;
    return this;
  }

  /**
   * Records every event in this journal, as {@link #journal(Journal)}, and also the spec as it
   * grows: after {@link #submit} added groups, the spec encoded by {@code specEncoder} (the journal
   * module's {@code SpecCodec::encode}, which this module does not depend on) goes to
   * {@link Journal#updateSpec} once per engine step, in the same flush as the new tasks' first
   * events, so a resumed session knows every task it had. Use it for a {@link #keepOpen} run whose
   * journal must be resumable; {@link #journal(Journal)} suffices for runs whose spec never grows.
   * Call before starting.
   */
  public Engine journal(Journal j, Function<RunSpec, String> specEncoder) {
    Objects.requireNonNull(specEncoder, "specEncoder");
    journal(j);
    this.specEncoder = specEncoder;
    return this;
  }

  /**
   * Resumes a run from what its journal holds: the events are folded into the state, attempts that
   * were running when the last scheduler stopped are settled (their exit code recorded, adopted if
   * still alive, or counted as interrupted), and retry counts carry over. Call before starting.
   */
  public Engine resume(Journal.Replay replay) {
    if (startedAt != null) {
      throw new IllegalStateException("resume must be called before the run starts");
    }
    replay.applyTo(state);
    restored = replay;
    return this;
  }

  /**
   * Keeps the run going after every task has ended, until {@link #closeSubmissions()}: for a
   * session that {@link #submit submits} groups as it goes. Call before starting.
   */
  public Engine keepOpen() {
    if (startedAt != null) {
      throw new IllegalStateException("keepOpen must be called before the run starts");
    }
    open = true;
    return this;
  }

  /**
   * Adds a group to the running run. Safe to call from any thread.
   *
   * @return completes when the group is part of the run, or exceptionally when it is invalid
   *     (a task id already used, a dependency on an unknown task, a cycle)
   */
  public CompletableFuture<Void> submit(GroupSpec group) {
    CompletableFuture<Void> added = new CompletableFuture<>();
    inbox.add(() -> {
      if (result != null) {
        added.completeExceptionally(new IllegalStateException("the run has ended"));
        return;
      }
      try {
        state.add(group, clock.instant());
        specGrew = true; // journalled by the next commit, before the group's first event is shown
        added.complete(null);
      } catch (IllegalArgumentException e) {
        added.completeExceptionally(e);
      }
    });
    return added;
  }

  /** Lets an open run end once every task has ended. Safe to call from any thread. */
  public void closeSubmissions() {
    inbox.add(() -> open = false);
  }

  /**
   * Lets an open run end now: when tasks have not ended, they are cancelled with {@code reason}
   * and the run ends cancelled; otherwise it ends as its tasks did. Safe to call from any thread;
   * groups submitted before are part of what ends.
   */
  public void end(String reason) {
    inbox.add(() -> {
      if (state.isFinished()) {
        open = false;
      } else {
        cancelAll(reason);
      }
    });
  }

  /** Runs the whole run on the calling thread and returns when every task has ended. */
  public RunResult run() throws InterruptedException {
    start();
    while (result == null) {
      inbox.take().run();
      drain();
    }
    return result;
  }

  /** Takes the first reading, schedules probe ticks and makes the first decisions. */
  public void start() {
    if (startedAt != null) {
      throw new IllegalStateException("engine already started");
    }
    startedAt = restored != null ? restored.run().startedAt() : clock.instant();
    state.started(startedAt);
    listener.runStarted(state);
    if (restored != null && state.spec().config().onCluster()) {
      readProbe(); // the requests reattach builds need the snapshot; no local process is adopted
      reattach();
    } else {
      if (restored != null) {
        Recovery.settle(state, layout, clock.instant(), scheduler.attempts(), this::record, this::adopt);
      }
      readProbe(); // after adopting, so adopted processes are measured
    }
    scheduleTick();
    commit();
    reconcile();
    commit();
  }

  /**
   * On a cluster, jobs outlive the Berth that submitted them: each attempt the journal says was
   * running is found again by the job id its executor recorded, and watched to its end (which may
   * already have come). An attempt without a recorded job was never submitted and runs again
   * without using any retry budget.
   */
  private void reattach() {
    for (Map.Entry<TaskId, TaskEvent.Launched> e : new ArrayList<>(state.running().entrySet())) {
      TaskRecord r = state.task(e.getKey());
      LaunchRequest request = request(r, e.getValue().attempt(), e.getValue().placement());
      Optional<Execution> found = executor.reattach(request, exitListener(request));
      if (found.isPresent()) {
        executions.put(e.getKey(), found.get());
        if (r.history().attempts().get(r.history().attemptCount() - 1).clusterId().isEmpty()) {
          recordSubmission(e.getKey(), e.getValue().attempt(), found.get()); // the last Berth died before journalling it
        }
      } else {
        record(e.getKey(), new TaskEvent.Ended(clock.instant(), Outcome.INTERRUPTED, null,
            "the scheduler stopped before this attempt was submitted; the task runs again", TaskState.READY));
      }
    }
  }

  /** Watches a process an earlier scheduler started; when it ends, its attempt ends as Recovery decides. */
  private void adopt(TaskId id, AdoptedExecution execution) {
    executions.put(id, execution);
    int attempt = state.task(id).history().attemptCount();
    execution.onExit().thenRun(() -> inbox.add(() -> adoptedExited(id, attempt)));
  }

  private void adoptedExited(TaskId id, int attempt) {
    executions.remove(id);
    TaskRecord r = state.task(id);
    if (r.history().currentLaunch().map(l -> l.attempt() == attempt).orElse(false)) {
      Decision.Kill kill = killing.remove(id);
      record(id, kill != null
          ? scheduler.attempts().ended(r, clock.instant(), 143, Optional.of(kill), "")
          : Recovery.endOfAdopted(r, layout, clock.instant()));
    }
  }

  /**
   * Makes what was recorded durable, then tells the listener: nothing is shown before it is in the
   * journal. One flush per engine step is the group commit.
   */
  private void commit() {
    try {
      if (specGrew && specEncoder != null) {
        journal.updateSpec(specEncoder.apply(state.spec()));
      }
      specGrew = false;
      journal.flush();
    } catch (JournalException e) {
      throw new IllegalStateException("the journal cannot be written: " + e.getMessage(), e);
    }
    List<Runnable> announce = new ArrayList<>(unannounced);
    unannounced.clear();
    announce.forEach(Runnable::run);
  }

  /** Processes every message waiting in the inbox, then decides once. Call from the loop thread. */
  public void drain() {
    Runnable next;
    while ((next = inbox.poll()) != null) {
      next.run();
    }
    commit();
    reconcile();
    commit();
  }

  /**
   * Stops new starts, cancels every task that has not started and terminates running ones; the
   * report is still written when they have exited. Safe to call from any thread.
   */
  public void cancel(String reason) {
    inbox.add(() -> cancelAll(reason));
  }

  /**
   * Cancels these tasks: those not started end as cancelled, running ones are terminated; tasks
   * that can no longer run because of them are cancelled in turn. Unknown or ended tasks are
   * ignored. Safe to call from any thread.
   */
  public void cancel(Collection<TaskId> tasks, String reason) {
    List<TaskId> copy = List.copyOf(tasks);
    inbox.add(() -> copy.forEach(id -> cancelTask(id, reason)));
  }

  /**
   * Cancels the tasks matching any of these patterns (ids, globs such as {@code train-*}, or
   * {@code group:NAME}), or the whole run when there are none. Safe to call from any thread.
   */
  public void cancelMatching(List<String> patterns, String reason) {
    if (patterns.isEmpty()) {
      cancel(reason);
      return;
    }
    List<String> copy = List.copyOf(patterns);
    inbox.add(() -> {
      for (TaskRecord r : state.tasks()) {
        if (copy.stream().anyMatch(p -> TaskPattern.selects(p, r.spec()))) {
          cancelTask(r.spec().id(), reason);
        }
      }
    });
  }

  /** The run's state; read it only from the loop thread. */
  public RunState state() {
    return state;
  }

  /** The result once the run has ended, or null. */
  public RunResult result() {
    return result;
  }

  private void reconcile() {
    if (result != null) {
      return;
    }
    if (cancelReason == null) {
      boolean again = true;
      while (again) {
        Decisions decisions = scheduler.decide(state, snapshot, clock.instant());
        again = act(decisions);
        unannounced.add(() -> listener.decided(decisions));
        if (!again) {
          wakeAt(decisions.wakeAt().orElse(null));
        }
      }
    } else {
      settleCancelled();
    }
    if (state.isFinished() && executions.isEmpty() && (!open || cancelReason != null)) {
      finish();
    }
  }

  /** Carries out decisions; returns whether another pass may decide more (a release or failure happened). */
  private boolean act(Decisions decisions) {
    boolean progressed = false;
    List<Decision.Start> starts = new ArrayList<>();
    for (Decision d : decisions.actions()) {
      Instant now = clock.instant();
      if (d instanceof Decision.Release) {
        record(d.task(), new TaskEvent.Released(now));
      } else if (d instanceof Decision.Fail fail) {
        record(d.task(), new TaskEvent.Settled(now, TaskState.FAILED, fail.reason()));
        progressed = true;
      } else if (d instanceof Decision.Settle settle) {
        record(d.task(), new TaskEvent.Settled(now, settle.state(), settle.reason()));
        progressed = true;
      } else if (d instanceof Decision.Kill kill) {
        kill(kill);
      } else if (d instanceof Decision.Train train) {
        channel.send(d.task(), ControlCommand.train(train.placement().device()));
        record(d.task(), new TaskEvent.Trained(now, train.train(), train.placement()));
      } else if (d instanceof Decision.Resume) {
        record(d.task(), new TaskEvent.Staged(now, TaskState.LOADED));
        progressed = true;
      } else if (d instanceof Decision.Exit exit) {
        askToExit(exit);
      } else if (d instanceof Decision.Start start) {
        TaskSpec spec = state.task(start.task()).spec();
        record(start.task(), new TaskEvent.Launched(now, start.attempt(), start.placement(), -1, spec.twoStage()));
        starts.add(start);
      }
    }
    if (!starts.isEmpty()) {
      commit(); // write-ahead: every launch of this pass is durable before any of its processes exists
      spawn(starts);
    }
    for (Decision.Start start : starts) {
      // A process that could not start ended its attempt at once: decide again for its retry or
      // its dependants instead of waiting for the next probe tick.
      progressed |= !state.task(start.task()).state().hasProcess();
    }
    return progressed;
  }

  /**
   * Starts the processes of attempts whose launches are already journalled (write-ahead), so a
   * scheduler killed at any point never leaves a task process the journal does not know about; a
   * resumed run finds such a process by the variables it was given (see {@link Recovery}), or, on a
   * cluster, by the job id the executor recorded. The executor gets the whole pass at once, so it
   * can submit matrix tasks together.
   */
  private void spawn(List<Decision.Start> starts) {
    List<Decision.Start> left = new ArrayList<>(starts);
    while (!left.isEmpty()) {
      // Waves: a task the cluster is to hold for parents starting in this same pass goes after them,
      // once their executions exist.
      Set<TaskId> waiting = new TreeSet<>();
      left.forEach(s -> waiting.add(s.task()));
      List<Decision.Start> wave = new ArrayList<>();
      for (Decision.Start start : left) {
        boolean parentsLaunching = start.upstream()
            .map(d -> d.tasks().stream().anyMatch(waiting::contains)).orElse(false);
        if (!parentsLaunching) {
          wave.add(start);
        }
      }
      if (wave.isEmpty()) {
        wave.addAll(left); // cannot happen for a graph without cycles; never loop forever
      }
      left.removeAll(wave);
      launch(wave);
    }
  }

  private void launch(List<Decision.Start> starts) {
    List<LaunchRequest> requests = new ArrayList<>();
    for (Decision.Start start : starts) {
      TaskRecord r = state.task(start.task());
      LaunchRequest request = request(r, start.attempt(), start.placement());
      Optional<Upstream> upstream = start.upstream().flatMap(this::upstream);
      if (start.upstream().isPresent() && upstream.isEmpty()) {
        record(start.task(), new TaskEvent.Ended(clock.instant(), Outcome.INTERRUPTED, null,
            "a parent it was to wait for has no running job any more; the task waits for its dependencies again",
            TaskState.READY));
        continue;
      }
      requests.add(upstream.map(request::withUpstream).orElse(request));
    }
    if (requests.isEmpty()) {
      return;
    }
    for (Launch launch : executor.launchAll(requests, this::exitListener)) {
      TaskId id = launch.request().task();
      if (launch.execution().isPresent()) {
        executions.put(id, launch.execution().get());
        recordSubmission(id, launch.request().attempt(), launch.execution().get());
      } else {
        record(id, Retries.retryIfAllowed(state.task(id),
            Endings.startFailed(clock.instant(), launch.failure().orElseThrow().getMessage())));
      }
    }
  }

  /** Journals the id a cluster gave the attempt, so reports and a later Berth know its job. */
  private void recordSubmission(TaskId id, int attempt, Execution execution) {
    execution.clusterId().ifPresent(job -> record(id, new TaskEvent.Submitted(clock.instant(), attempt, job)));
  }

  private LaunchRequest request(TaskRecord r, int attempt, Placement placement) {
    TaskSpec spec = r.spec();
    SortedMap<String, String> channelEnv = spec.twoStage() ? channel.register(spec.id(), attempt) : new TreeMap<>();
    SortedMap<String, String> env = TaskEnvironment.of(
        state, layout, spec, attempt, placement, channelEnv, !snapshot.gpus().devices().isEmpty());
    LaunchRequest request = new LaunchRequest(
        spec.id(), attempt, spec.command(), env, layout.taskDir(spec), layout.stdout(spec), layout.stderr(spec))
        .withReservation(placement, spec.gpu().wholeDevices());
    return spec.params().isEmpty() ? request : request.withArrayKey(arrayKey(spec));
  }

  /**
   * Tasks of one group expanded over the same matrix parameters share a key, which also names their
   * job array ({@code train.lr+seed}); only characters every Slurm tool takes in a job name are kept.
   */
  private static String arrayKey(TaskSpec spec) {
    String key = spec.group() + "." + String.join("+", spec.params().keySet());
    return key.replaceAll("[^A-Za-z0-9._+-]", "_");
  }

  /** The running parents the executor is to hold an attempt back for, or empty when one has no execution. */
  private Optional<Upstream> upstream(Dependency dependency) {
    List<Execution> parents = new ArrayList<>();
    for (TaskId parent : dependency.tasks()) {
      Execution e = executions.get(parent);
      if (e == null) {
        return Optional.empty();
      }
      parents.add(e);
    }
    return Optional.of(new Upstream(parents, dependency.all(), dependency.success(), dependency.failure()));
  }

  private ExitListener exitListener(LaunchRequest request) {
    TaskId id = request.task();
    int attempt = request.attempt();
    Path dir = request.workdir();
    return code -> {
      ExitMarks.write(dir, attempt, code);
      inbox.add(() -> exited(id, attempt, code));
    };
  }

  /** Asks a two-stage task's process to exit, and terminates it if it has not after a grace period. */
  private void askToExit(Decision.Exit exit) {
    TaskId id = exit.task();
    if (!exiting.add(id)) {
      return;
    }
    channel.send(id, ControlCommand.exit());
    Execution e = executions.get(id);
    timers.schedule(Duration.ofMillis(TERMINATE_GRACE_MILLIS), () -> inbox.add(() -> {
      if (executions.get(id) == e && e != null && e.isAlive()) {
        e.terminate(TERMINATE_GRACE_MILLIS);
      }
    }));
  }

  private void kill(Decision.Kill kill) {
    Execution e = executions.get(kill.task());
    if (e == null) {
      return;
    }
    Decision.Kill earlier = killing.putIfAbsent(kill.task(), kill);
    if (earlier == null) {
      e.terminate(TERMINATE_GRACE_MILLIS);
    } else if (kill.outcome() == Outcome.CANCELLED && earlier.outcome() != Outcome.CANCELLED) {
      killing.put(kill.task(), kill); // a cancel during a timeout kill wins: the attempt ends cancelled, no retry
    }
  }

  private void cancelTask(TaskId id, String reason) {
    TaskRecord r;
    try {
      r = state.task(id);
    } catch (IllegalArgumentException unknown) {
      return;
    }
    if (r.state().isTerminal()) {
      return;
    }
    if (r.state().hasProcess()) {
      kill(new Decision.Kill(id, Outcome.CANCELLED, reason));
    } else {
      record(id, new TaskEvent.Settled(clock.instant(), TaskState.CANCELLED, reason));
    }
  }

  private void wakeAt(Instant at) {
    if (at == null || (wakeAt != null && !at.isBefore(wakeAt))) {
      return;
    }
    if (wake != null) {
      wake.cancel();
    }
    wakeAt = at;
    Duration delay = Duration.between(clock.instant(), at);
    wake = timers.schedule(delay.isNegative() ? Duration.ZERO : delay, () -> inbox.add(() -> {
      wakeAt = null;
      wake = null;
    }));
  }

  private void exited(TaskId id, int attempt, int exitCode) {
    Execution execution = executions.remove(id);
    exiting.remove(id);
    channel.forget(id);
    TaskRecord r = state.task(id);
    TaskEvent.Launched current = r.history().currentLaunch().orElse(null);
    if (current == null || current.attempt() != attempt) {
      return; // not the attempt the task is in now; nothing to end
    }
    String tail = exitCode == 0 ? "" : LogTails.read(layout.stderr(r.spec()), LogTails.STDERR_BYTES);
    Optional<ClusterVerdict> verdict = execution == null ? Optional.empty() : execution.verdict();
    record(id, scheduler.attempts().ended(
        r, clock.instant(), exitCode, Optional.ofNullable(killing.remove(id)), tail, verdict));
  }

  private void cancelAll(String reason) {
    if (cancelReason != null || result != null) {
      return;
    }
    cancelReason = reason;
    for (TaskId id : new ArrayList<>(executions.keySet())) {
      kill(new Decision.Kill(id, Outcome.CANCELLED, reason));
    }
  }

  /** After a run-wide cancel, every task without a process ends as cancelled, including retries. */
  private void settleCancelled() {
    Instant now = clock.instant();
    for (TaskRecord r : state.tasks()) {
      if (!r.state().isTerminal() && !r.state().hasProcess()) {
        record(r.spec().id(), new TaskEvent.Settled(now, TaskState.CANCELLED, cancelReason));
      }
    }
  }

  private void record(TaskId id, TaskEvent event) {
    state.apply(id, event);
    journal.append(id, event);
    TaskRecord r = state.task(id);
    unannounced.add(() -> listener.taskEvent(r, event));
  }

  private void readProbe() {
    SortedMap<TaskId, Long> pids = new TreeMap<>();
    executions.forEach((id, execution) -> {
      if (execution.pid() > 0) {
        pids.put(id, execution.pid());
      }
    });
    Instant now = clock.instant();
    snapshot = probe.read(now, pids).withGpus(gpus.read(now, pids));
    snapshot.gpus().taskMemoryBytes().forEach(state::observeGpuUsage);
    listener.probed(snapshot);
  }

  private void scheduleTick() {
    tick = timers.schedule(state.spec().config().interval(), () -> inbox.add(() -> {
      if (result == null) {
        readProbe();
        scheduleTick();
      }
    }));
  }

  private void finish() {
    if (tick != null) {
      tick.cancel();
    }
    if (wake != null) {
      wake.cancel();
    }
    channel.close();
    RunReport report = RunReport.of(
        state, startedAt, clock.instant(), cancelReason != null, spec -> layout.taskDir(spec).toString())
        .withDevices(snapshot.gpus().devices().stream()
            .map(d -> new DeviceReport(d.id(), d.name(), d.totalMemoryBytes(), d.simulated())).toList());
    try {
      journal.finish(report.status(), report.finishedAt());
      ReportWriter.write(report, layout.reportJson());
    } catch (JournalException e) {
      throw new IllegalStateException("the journal cannot be written: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + layout.reportJson(), e);
    }
    commit();
    result = new RunResult(report, layout.reportJson());
    listener.runFinished(report);
  }
}
