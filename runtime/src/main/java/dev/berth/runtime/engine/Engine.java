package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.RunReport;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.Endings;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Scheduler;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.report.ReportWriter;
import dev.berth.spi.Execution;
import dev.berth.spi.Executor;
import dev.berth.spi.HostProbe;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Timers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

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

  private final RunState state;
  private final Scheduler scheduler;
  private final RunLayout layout;
  private final Executor executor;
  private final HostProbe probe;
  private final InstantSource clock;
  private final Timers timers;
  private final RunListener listener;
  private final BlockingQueue<Runnable> inbox = new LinkedBlockingQueue<>();
  private final Map<TaskId, Execution> executions = new TreeMap<>();
  private HostSnapshot snapshot;
  private Instant startedAt;
  private String cancelReason;
  private Timers.Cancellable tick;
  private RunResult result;

  /** An engine for one run; nothing happens until {@link #start()} or {@link #run()}. */
  public Engine(
      RunSpec spec, RunLayout layout, Executor executor, HostProbe probe, InstantSource clock, Timers timers,
      RunListener listener) {
    this.state = new RunState(spec);
    this.scheduler = new Scheduler(spec.config());
    this.layout = layout;
    this.executor = executor;
    this.probe = probe;
    this.clock = clock;
    this.timers = timers;
    this.listener = listener;
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
    startedAt = clock.instant();
    listener.runStarted(state);
    readProbe();
    scheduleTick();
    reconcile();
  }

  /** Processes every message waiting in the inbox, then decides once. Call from the loop thread. */
  public void drain() {
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
    inbox.add(() -> cancelAll(reason));
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
        listener.decided(decisions);
      }
    }
    if (state.isFinished() && executions.isEmpty()) {
      finish();
    }
  }

  /** Carries out decisions; returns whether another pass may decide more (a release or failure happened). */
  private boolean act(Decisions decisions) {
    boolean progressed = false;
    for (Decision d : decisions.actions()) {
      Instant now = clock.instant();
      if (d instanceof Decision.Release) {
        record(d.task(), new TaskEvent.Released(now));
      } else if (d instanceof Decision.Fail fail) {
        record(d.task(), new TaskEvent.Settled(now, TaskState.EXCEPTION, fail.reason()));
        progressed = true;
      } else if (d instanceof Decision.Start start) {
        launch(state.task(start.task()), start.attempt(), start.placement());
      }
    }
    return progressed;
  }

  private void launch(TaskRecord r, int attempt, Placement placement) {
    TaskSpec spec = r.spec();
    LaunchRequest request = new LaunchRequest(
        spec.id(), attempt, spec.command(), environment(spec, attempt, placement), layout.taskDir(spec),
        layout.stdout(spec), layout.stderr(spec));
    TaskId id = spec.id();
    try {
      Execution execution = executor.launch(request, code -> inbox.add(() -> exited(id, attempt, code)));
      executions.put(id, execution);
      record(id, new TaskEvent.Launched(clock.instant(), attempt, placement, execution.pid(), false));
    } catch (LaunchException e) {
      Instant now = clock.instant();
      record(id, new TaskEvent.Launched(now, attempt, placement, -1, false));
      record(id, Endings.startFailed(now, e.getMessage()));
    }
  }

  private SortedMap<String, String> environment(TaskSpec spec, int attempt, Placement placement) {
    SortedMap<String, String> env = new TreeMap<>(spec.env());
    env.put("BERTH_RUN", state.spec().name());
    env.put("BERTH_RUN_DIR", layout.runDir().toString());
    env.put("BERTH_GROUP", spec.group());
    env.put("BERTH_TASK_ID", spec.id().value());
    env.put("BERTH_TASK_DIR", layout.taskDir(spec).toString());
    env.put("BERTH_ATTEMPT", Integer.toString(attempt));
    env.put("BERTH_DEVICE", placement.device());
    env.put("BERTH_CPUS", Double.toString(placement.milliCpus() / 1000.0));
    env.put("BERTH_MEMORY_BYTES", Long.toString(placement.memoryBytes()));
    spec.params().forEach((k, v) -> env.put("BERTH_PARAM_" + k.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_"), v));
    return env;
  }

  private void exited(TaskId id, int attempt, int exitCode) {
    executions.remove(id);
    TaskRecord r = state.task(id);
    TaskEvent.Launched current = r.history().currentLaunch().orElse(null);
    if (current == null || current.attempt() != attempt) {
      return; // not the attempt the task is in now; nothing to end
    }
    Instant now = clock.instant();
    if (cancelReason != null) {
      record(id, Endings.cancelled(now, exitCode, cancelReason));
    } else {
      record(id, Endings.exited(now, exitCode));
    }
  }

  private void cancelAll(String reason) {
    if (cancelReason != null || result != null) {
      return;
    }
    cancelReason = reason;
    Instant now = clock.instant();
    for (TaskRecord r : state.tasks()) {
      if (!r.state().isTerminal() && !r.state().hasProcess()) {
        record(r.spec().id(), new TaskEvent.Settled(now, TaskState.CANCELLED, reason));
      }
    }
    for (Execution e : new ArrayList<>(executions.values())) {
      e.terminate(TERMINATE_GRACE_MILLIS);
    }
  }

  private void record(TaskId id, TaskEvent event) {
    state.apply(id, event);
    listener.taskEvent(state.task(id), event);
  }

  private void readProbe() {
    SortedMap<TaskId, Long> pids = new TreeMap<>();
    state.running().forEach((id, launch) -> {
      if (launch.pid() > 0) {
        pids.put(id, launch.pid());
      }
    });
    snapshot = probe.read(clock.instant(), pids);
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
    RunReport report = RunReport.of(
        state, startedAt, clock.instant(), cancelReason != null, spec -> layout.taskDir(spec).toString());
    try {
      ReportWriter.write(report, layout.reportJson());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + layout.reportJson(), e);
    }
    result = new RunResult(report, layout.reportJson());
    listener.runFinished(report);
  }

  /** The tasks running now, for status displays; read from the loop thread. */
  public List<TaskId> runningTasks() {
    return List.copyOf(executions.keySet());
  }
}
