package dev.berth.runtime.engine;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Scheduler;
import dev.berth.runtime.control.channel.ControlListener;
import dev.berth.runtime.control.channel.ControlPort;
import dev.berth.runtime.gpu.NoGpuProbe;
import dev.berth.spi.Executor;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.HostProbe;
import dev.berth.spi.Journal;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.Timers;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
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
 *
 * <p>The work is shared out: {@link EventRecorder} records and journals events (group commit),
 * {@link DecisionActions} carries out decisions, {@link AttemptLauncher} starts attempts, {@link AttemptExits} ends
 * them when their processes exit, {@link Terminations} cancels and kills, {@link HostReadings} reads the probes,
 * {@link LoopTimers} keeps the tick and wake-up, {@link TwoStageChannel} talks to two-stage tasks,
 * {@link RunEndRecorder} reports the end. Each of them sees the run only through its own narrow
 * {@code Context}, which {@link LoopContext} implements once for all of them.
 */
public final class Engine {

  private static final GpuProbe NO_GPUS = new NoGpuProbe();

  private final RunState state;
  private final Scheduler scheduler;
  private final RunLayout layout;
  private final InstantSource clock;
  private final Timers timers;
  private final RunListener listener;
  private final BlockingQueue<Runnable> inbox = new LinkedBlockingQueue<>();
  private final LoopContext parts;
  private Instant startedAt;
  private RunResult result;
  private boolean open;
  private Journal.Replay restored;
  private ProcessTable processes = ProcessTable.LOCAL;

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
    this.state = new RunState(spec);
    this.scheduler = new Scheduler(spec.config());
    this.layout = layout;
    this.clock = clock;
    this.timers = timers;
    this.listener = listener;
    this.parts = new LoopContext(state, layout, executor, probe, gpuProbe, clock, timers, listener, scheduler, inbox::add);
  }

  /**
   * Starts task processes on {@code count} threads of the engine's own instead of on its loop, so the
   * loop handles exits and decides while processes start (see {@link AttemptLauncher}). The executor
   * must take launches from several threads at once. Call before starting.
   */
  public Engine launchOnThreads(int count) {
    beforeStart("launch threads");
    parts.launcher.launchOnThreads(count);
    return this;
  }

  /** Starts task processes on these threads, as {@link #launchOnThreads}; for tests that run the launches themselves. */
  Engine launchOn(java.util.concurrent.Executor threads) {
    parts.launcher.launchOn(threads);
    return this;
  }

  private void beforeStart(String what) {
    if (startedAt != null) {
      throw new IllegalStateException(what + " must be set before the run starts");
    }
  }

  /** Talks to two-stage tasks through this channel instead of the run's socket. Call before starting. */
  Engine control(TwoStageChannel.Opener opener) {
    parts.channel.openWith(opener);
    return this;
  }

  /**
   * Talks to two-stage tasks through the port {@code opener} opens for the engine's listener,
   * instead of the run's socket: for a stand-in of the tasks' side. Call before starting.
   */
  public Engine controlChannel(Function<ControlListener, ControlPort> opener) {
    beforeStart("the control channel");
    TwoStageChannel.Opener open = opener::apply;
    return control(open);
  }

  /**
   * Looks for the task processes an earlier Berth of the run left running in this table instead of
   * this machine's: for a stand-in of the machine. Call before starting.
   */
  public Engine processes(ProcessTable table) {
    beforeStart("the process table");
    processes = Objects.requireNonNull(table, "table");
    return this;
  }

  /**
   * Takes part in the host ledger every Berth run on this machine shares (the caller has joined it
   * and closes it): what other runs hold is not free to this one, each attempt takes its
   * reservation there before its process starts and releases it as it ends, and waiting tasks keep
   * their place in the host-wide order. Without it the run counts only its own tasks. Call before
   * starting.
   */
  public Engine shareHost(SharedReservations ledger) {
    beforeStart("the host ledger");
    parts.share.use(Objects.requireNonNull(ledger, "ledger"));
    parts.requests.hostLedger(ledger.where());
    return this;
  }

  /**
   * Records every event in this journal, flushed before the event is acted on or shown. The caller
   * has already started the journal (or, when resuming, opened it). Call before starting.
   */
  public Engine journal(Journal j) {
    beforeStart("the journal");
    parts.recorder.journal(j);
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
    parts.recorder.encodeSpecWith(specEncoder);
    return this;
  }

  /**
   * Resumes a run from what its journal holds: the events are folded into the state, attempts that
   * were running when the last scheduler stopped are settled (their exit code recorded, adopted if
   * still alive, or counted as interrupted), and retry counts carry over. Call before starting.
   */
  public Engine resume(Journal.Replay replay) {
    beforeStart("resume");
    replay.applyTo(state);
    restored = replay;
    return this;
  }

  /**
   * Keeps the run going after every task has ended, until {@link #closeSubmissions()}: for a
   * session that {@link #submit submits} groups as it goes. Call before starting.
   */
  public Engine keepOpen() {
    beforeStart("keepOpen");
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
        parts.recorder.specGrew(); // journalled by the next commit, before the group's first event is shown
        added.complete(null);
      } catch (IllegalArgumentException e) {
        added.completeExceptionally(e);
      }
    });
    return added;
  }

  /** Berth's JVM exits leaving the run to resume, as after a crash: no exit is marked from now on. Any thread. */
  public void leaveAsCrashed() {
    parts.exits.marks().close();
  }

  /** Lets an open run end once every task has ended. Safe to call from any thread. */
  public void closeSubmissions() {
    inbox.add(() -> open = false);
  }

  /**
   * Lets an open run end now: when tasks have not ended, the run is {@link #interrupt interrupted}
   * with {@code reason}, to go on when a later session resumes it; otherwise it ends as its tasks
   * did. Safe to call from any thread; groups submitted before are part of what ends.
   */
  public void end(String reason) {
    inbox.add(() -> {
      if (state.isFinished()) {
        open = false;
      } else if (result == null) {
        parts.terminations.interruptRun(reason);
      }
    });
  }

  /**
   * Stops the run because Berth stops (a signal, a session closed): no more starts, running
   * process trees are terminated and their attempts end as interrupted, unless they finished with
   * success first; tasks that had not started stay as they are. The run then ends
   * {@link dev.berth.core.report.RunStatus#INTERRUPTED}, its report is written, and its journal
   * keeps it unfinished, so that the next {@code berth run} or {@code berth resume} goes on where it
   * stopped. Safe to call from any thread.
   */
  public void interrupt(String reason) {
    inbox.add(() -> {
      if (result == null) {
        parts.terminations.interruptRun(reason);
      }
    });
  }

  /** Runs the whole run on the calling thread and returns when every task has ended (group commit: see EventRecorder). */
  public RunResult run() throws InterruptedException {
    start();
    try {
      while (result == null) {
        Runnable next = inbox.poll();
        parts.recorder.betweenSteps(next == null);
        (next != null ? next : inbox.take()).run();
        step();
      }
    } catch (RuntimeException | Error e) {
      markStopped(e);
      throw e;
    }
    return result;
  }

  /**
   * Takes the first reading, schedules probe ticks and makes the first decisions. When it throws,
   * the attempts still running are marked as interrupted by Berth's stop, as {@link #run} does.
   */
  public void start() {
    if (startedAt != null) {
      throw new IllegalStateException("engine already started");
    }
    try {
      begin();
    } catch (RuntimeException | Error e) {
      markStopped(e);
      throw e;
    }
  }

  /** Whoever catches {@code e} kills the processes still running; the marks say it was Berth that stopped them. */
  private void markStopped(Throwable e) {
    parts.exits.markStopping("interrupted: Berth stopped (" + e.getMessage() + ")");
  }

  private void begin() {
    startedAt = restored != null ? restored.run().startedAt() : clock.instant();
    state.started(startedAt);
    listener.runStarted(state);
    if (restored != null && state.spec().config().onCluster()) {
      parts.readings.read(); // the requests reattach builds need the snapshot; no local process is adopted
      parts.launcher.reattach();
    } else {
      if (restored != null) {
        Recovery.settle(state, layout, clock.instant(), scheduler.attempts(), parts.recorder::record, parts.exits::adopt,
            parts.exits.marks(), processes, timers);
      }
      parts.readings.read(); // after adopting, so adopted processes are measured
      if (restored != null) {
        parts.share.adoptRunning(parts.readings.snapshot());
      }
    }
    if (restored != null) {
      Recovery.releaseInterrupted(state, clock.instant(), parts.recorder::record);
    }
    parts.loopTimers.tickEvery(() -> state.spec().config().interval(), () -> result == null, parts.readings::read);
    parts.recorder.commit();
    reconcile();
    parts.recorder.commit();
  }

  /**
   * Processes every message waiting in the inbox, decides once and commits. Call from the loop
   * thread. When it throws, the attempts still running are marked as {@link #run} marks them.
   */
  public void drain() {
    try {
      step();
      parts.recorder.commit();
    } catch (RuntimeException | Error e) {
      markStopped(e);
      throw e;
    }
  }

  private void step() { // the commit may wait: see run()
    Runnable next;
    while ((next = inbox.poll()) != null) {
      next.run();
    }
    reconcile();
  }

  /**
   * Stops new starts, cancels every task that has not started and terminates running ones; the
   * report is still written when they have exited. Safe to call from any thread.
   */
  public void cancel(String reason) {
    inbox.add(() -> {
      if (result == null) {
        parts.terminations.cancelRun(reason);
      }
    });
  }

  /**
   * Cancels these tasks: those not started end as cancelled, running ones are terminated; tasks
   * that can no longer run because of them are cancelled in turn. Unknown or ended tasks are
   * ignored. Safe to call from any thread.
   */
  public void cancel(Collection<TaskId> tasks, String reason) {
    List<TaskId> copy = List.copyOf(tasks);
    inbox.add(() -> copy.forEach(id -> parts.terminations.cancelTask(id, reason)));
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
    inbox.add(() -> parts.terminations.cancelMatching(copy, reason));
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
    parts.share.releaseEnded(); // released with the pass's first take, or after the pass: other runs see it at once
    if (parts.terminations.runCancelled()) {
      parts.terminations.settleCancelled();
    } else if (!parts.terminations.runInterrupted()) {
      parts.actions.decide();
    }
    parts.share.releaseNoted();
    boolean stopped = parts.terminations.runCancelled() || parts.terminations.runInterrupted();
    if (parts.executions.isEmpty() && (state.isFinished() ? !open || stopped
        : parts.terminations.runInterrupted() && state.running().isEmpty())) {
      finish();
    }
  }

  private void finish() {
    parts.recorder.commit(); // what the report shows is durable first
    parts.loopTimers.stop();
    parts.launcher.close();
    parts.channel.close();
    RunStatus stoppedAs = parts.terminations.runCancelled() ? RunStatus.CANCELLED
        : state.isFinished() ? null : RunStatus.INTERRUPTED;
    RunReport report = RunEndRecorder.record(state, layout, startedAt, clock.instant(), stoppedAs, parts.readings.deviceReports(),
        restored != null ? restored.revisions() : List.of(), parts.recorder);
    parts.exits.marks().close();
    parts.share.leave(report.status().name().toLowerCase(java.util.Locale.ROOT));
    result = new RunResult(report, layout.reportJson());
    listener.runFinished(report);
  }
}
