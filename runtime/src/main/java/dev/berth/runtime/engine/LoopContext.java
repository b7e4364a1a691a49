package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Scheduler;
import dev.berth.protocol.ControlCommand;
import dev.berth.spi.Executor;
import dev.berth.spi.ExitListener;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.HostProbe;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The parts of one run's loop, built together, and the one implementation of each part's
 * {@code Context}: a part sees the run's state, layout, recorder, live executions, two-stage
 * channel, timers, clock and inbox only through the few operations its context names, so what it
 * depends on reads off its interface. Loop thread only, except {@link #now} and {@link #toLoop}.
 */
final class LoopContext implements AttemptLauncher.Context, AttemptExits.Context, TaskConversations.Context,
    DecisionActions.Context, Terminations.Context {

  private static final Duration GRACE = Duration.ofMillis(LiveExecutions.TERMINATE_GRACE_MILLIS);

  private final RunState state;
  private final RunLayout layout;
  private final InstantSource clock;
  private final Timers timers;
  private final Consumer<Runnable> inbox;
  private final RunListener listener;
  final EventRecorder recorder;
  final LoopTimers loopTimers;
  final LiveExecutions executions = new LiveExecutions();
  final TwoStageChannel channel;
  final HostShare share;
  final HostReadings readings;
  final LaunchRequests requests;
  final AttemptExits exits;
  final AttemptLauncher launcher;
  final Terminations terminations;
  final DecisionActions actions;

  /** The parts of a run on a host read by these probes, whose attempts start through {@code executor}. */
  LoopContext(RunState state, RunLayout layout, Executor executor, HostProbe probe, GpuProbe gpuProbe,
      InstantSource clock, Timers timers, RunListener listener, Scheduler scheduler, Consumer<Runnable> inbox) {
    this.state = state;
    this.layout = layout;
    this.clock = clock;
    this.timers = timers;
    this.inbox = inbox;
    this.listener = listener;
    this.loopTimers = new LoopTimers(timers, clock, inbox);
    this.recorder = new EventRecorder(state, listener, inbox);
    this.channel = new TwoStageChannel(layout.runDir(), inbox);
    this.share = new HostShare(state, clock);
    this.readings = new HostReadings(probe, new GpuTracker(gpuProbe), executions, listener, clock, share);
    this.requests = new LaunchRequests(state, layout, channel, readings::snapshot);
    this.exits = new AttemptExits(this, scheduler.attempts());
    channel.handleWith(new TaskConversations(this));
    this.launcher = new AttemptLauncher(this, executor, requests);
    this.terminations = new Terminations(this);
    this.actions = new DecisionActions(this, scheduler, share, readings, executor::jobLimits);
  }

  @Override
  public RunState state() {
    return state;
  }

  @Override
  public RunLayout layout() {
    return layout;
  }

  @Override
  public Instant now() {
    return clock.instant();
  }

  @Override
  public void record(TaskId id, TaskEvent event) {
    recorder.record(id, event);
  }

  @Override
  public void commitSoon() {
    recorder.commitSoon();
  }

  @Override
  public LiveExecutions executions() {
    return executions;
  }

  @Override
  public void toLoop(Runnable step) {
    inbox.accept(step);
  }

  @Override
  public void afterGrace(Runnable step) {
    timers.schedule(GRACE, () -> inbox.accept(step));
  }

  @Override
  public ExitListener listenerFor(LaunchRequest request) {
    return exits.listenerFor(request);
  }

  @Override
  public boolean releaseExit(TaskId id, int attempt) {
    return exits.release(id, attempt);
  }

  @Override
  public Optional<Long> takeGpuPeak(TaskId id) {
    return readings.takeGpuPeak(id);
  }

  @Override
  public void send(TaskId id, ControlCommand command) {
    channel.send(id, command);
  }

  @Override
  public boolean connected(TaskId id) {
    return channel.isConnected(id);
  }

  @Override
  public void hangUp(TaskId id) {
    channel.forget(id);
  }

  @Override
  public void spawn(List<Decision.Start> starts) {
    launcher.spawn(starts);
  }

  @Override
  public void askToExit(Decision.Exit exit) {
    terminations.askToExit(exit);
  }

  @Override
  public void decided(Decisions decisions) {
    recorder.announce(() -> listener.decided(decisions));
  }

  @Override
  public void wakeAt(Instant at) {
    loopTimers.wakeAt(at);
  }
}
