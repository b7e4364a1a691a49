package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HeldElsewhere;
import dev.berth.core.resources.Refusal;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Waiting;
import dev.berth.protocol.ControlCommand;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Carries out one pass of the scheduler's decisions. Loop thread only. */
final class DecisionActions {

  private final RunState state;
  private final EventRecorder recorder;
  private final LiveExecutions executions;
  private final Terminations terminations;
  private final AttemptLauncher launcher;
  private final TwoStageChannel channel;
  private final InstantSource clock;
  private final HostShare share;
  private final HostReadings readings;
  private final List<Waiting> deferred = new ArrayList<>();

  DecisionActions(RunState state, EventRecorder recorder, LiveExecutions executions, Terminations terminations,
      AttemptLauncher launcher, TwoStageChannel channel, InstantSource clock, HostShare share,
      HostReadings readings) {
    this.state = state;
    this.recorder = recorder;
    this.executions = executions;
    this.terminations = terminations;
    this.launcher = launcher;
    this.channel = channel;
    this.clock = clock;
    this.share = share;
    this.readings = readings;
  }

  /**
   * Carries out decisions; returns whether another pass may decide more (a release or failure
   * happened, or another run took what a start was to get, which the next pass then sees).
   */
  boolean act(Decisions decisions) {
    boolean progressed = false;
    deferred.clear();
    List<Decision.Start> candidates = new ArrayList<>();
    Instant releasedAt = null; // one instant for the pass's releases, which the journal then stores as one row
    for (Decision d : decisions.actions()) {
      Instant now = clock.instant();
      if (d instanceof Decision.Release) {
        releasedAt = releasedAt == null ? now : releasedAt;
        recorder.record(d.task(), new TaskEvent.Released(releasedAt));
      } else if (d instanceof Decision.Fail fail) {
        recorder.record(d.task(), new TaskEvent.Settled(now, TaskState.FAILED, fail.reason()));
        progressed = true;
      } else if (d instanceof Decision.Settle settle) {
        recorder.record(d.task(), new TaskEvent.Settled(now, settle.state(), settle.reason()));
        progressed = true;
      } else if (d instanceof Decision.Kill kill) {
        executions.kill(kill);
      } else if (d instanceof Decision.Train train) {
        if (deferredByHost(d.task(), train.placement())) {
          continue;
        }
        channel.send(d.task(), ControlCommand.train(train.placement().device()));
        recorder.record(d.task(), new TaskEvent.Trained(now, train.train(), train.placement()));
      } else if (d instanceof Decision.Resume) {
        recorder.record(d.task(), new TaskEvent.Staged(now, TaskState.LOADED));
        progressed = true;
      } else if (d instanceof Decision.Exit exit) {
        terminations.askToExit(exit);
      } else if (d instanceof Decision.Start start) {
        candidates.add(start);
      }
    }
    List<Decision.Start> starts = launched(candidates);
    if (!starts.isEmpty()) {
      // Write-ahead: every launch of this pass survives a crash of Berth before any of its processes exists.
      recorder.commitSoon();
      launcher.spawn(starts);
    }
    for (Decision.Start start : starts) {
      // A process that could not start ended its attempt at once: decide again for its retry or
      // its dependants instead of waiting for the next probe tick.
      progressed |= !state.task(start.task()).state().hasProcess();
    }
    if (!deferred.isEmpty()) {
      HeldElsewhere before = share.elsewhere();
      readings.lookAgain();
      // Decide again only when another run's holdings changed, which the next pass then sees.
      progressed |= !share.elsewhere().equals(before);
    }
    return progressed;
  }

  /**
   * Journals the launches of the starts whose reservations the host ledger gave, all taken in one
   * ledger step; the others are deferred with why.
   */
  private List<Decision.Start> launched(List<Decision.Start> candidates) {
    List<Optional<Refusal>> refused = share.takeAll(candidates.stream()
        .map(s -> new HostShare.Start(state.task(s.task()), s.placement())).toList(), readings.snapshot());
    List<Decision.Start> starts = new ArrayList<>();
    Instant now = clock.instant();
    for (int i = 0; i < candidates.size(); i++) {
      Decision.Start start = candidates.get(i);
      if (refused.get(i).isPresent()) {
        deferred.add(new Waiting(start.task(), List.of(refused.get(i).get())));
        continue;
      }
      TaskSpec spec = state.task(start.task()).spec();
      recorder.record(start.task(), new TaskEvent.Launched(now, start.attempt(), start.placement(), -1, spec.twoStage(),
          start.learned()));
      starts.add(start);
    }
    return starts;
  }

  /** The starts of the last {@link #act} that the host ledger deferred, with why. */
  List<Waiting> deferred() {
    return List.copyOf(deferred);
  }

  private boolean deferredByHost(TaskId task, Placement placement) {
    Optional<Refusal> refused = share.take(state.task(task), placement, readings.snapshot());
    refused.ifPresent(r -> deferred.add(new Waiting(task, List.of(r))));
    return refused.isPresent();
  }
}
