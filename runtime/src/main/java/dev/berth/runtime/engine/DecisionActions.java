package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.Refusal;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.JobLimit;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.Scheduler;
import dev.berth.core.scheduling.Waiting;
import dev.berth.protocol.ControlCommand;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Carries out the scheduler's decisions, pass after pass until one decides nothing more for now:
 * events are recorded, launches journalled before their processes start, and reservations taken
 * from the host ledger, whose refusals make tasks wait with its reason. Loop thread only.
 */
final class DecisionActions {

  /** What carrying out decisions needs of the run around it; the engine's loop is the one implementation. */
  interface Context {
    /** The run's tasks, read only. */
    RunState state();

    Instant now();

    void record(TaskId id, TaskEvent event);

    /** Makes sure what was recorded so far is journalled before the next process starts (see {@link EventRecorder}). */
    void commitSoon();

    LiveExecutions executions();

    /** Sends a command to the two-stage task. */
    void send(TaskId id, ControlCommand command);

    /** Starts the processes of these journalled launches (see {@link AttemptLauncher#spawn}). */
    void spawn(List<Decision.Start> starts);

    /** Asks a two-stage task's process to exit (see {@link Terminations#askToExit}). */
    void askToExit(Decision.Exit exit);

    /** Tells the run's listener a pass's decisions as they were carried out, once what they record is journalled. */
    void decided(Decisions decisions);

    /** Wakes the loop at {@code at} for the next pass (null: no wish; see {@link LoopTimers#wakeAt}). */
    void wakeAt(Instant at);
  }

  private final Context run;
  private final Scheduler scheduler;
  private final HostShare share;
  private final HostReadings readings;
  private final Supplier<List<JobLimit>> clusterLimits;
  private final List<Waiting> deferred = new ArrayList<>();

  /**
   * Carries out what {@code scheduler} decides against the latest of {@code readings}, taking each
   * start's and train's reservation from {@code share}, and on a cluster keeping the run's jobs within
   * {@code clusterLimits} (the executor's {@link dev.berth.spi.Executor#jobLimits()}).
   */
  DecisionActions(Context run, Scheduler scheduler, HostShare share, HostReadings readings,
      Supplier<List<JobLimit>> clusterLimits) {
    this.run = run;
    this.scheduler = scheduler;
    this.share = share;
    this.readings = readings;
    this.clusterLimits = clusterLimits;
  }

  /**
   * Decides and carries out a pass, and another while more may be decided. A start the host ledger
   * refuses took nothing, yet the pass judged the tasks after it with what it would have taken: they
   * are judged again without it. Each round ends, for each new pass holds back one task more, unless
   * the ledger could not be used at all. Every pass is told as it was carried out; the last one sets
   * the next wake-up.
   */
  void decide() {
    Set<TaskId> heldBack = new TreeSet<>();
    List<Waiting> refusedByHost = new ArrayList<>();
    boolean again = true;
    while (again) {
      List<JobLimit> limits = scheduler.config().onCluster() ? clusterLimits.get() : List.of();
      Decisions decided = scheduler.decide(run.state(), readings.snapshot(), run.now(), heldBack, limits);
      again = act(decided);
      boolean held = false;
      for (Waiting w : deferred) {
        held |= heldBack.add(w.task());
        refusedByHost.add(w);
      }
      again |= held && share.reachable();
      Decisions decisions = HostDeferrals.apply(decided, refusedByHost);
      share.waiting(decisions.waiting(), readings.snapshot());
      run.decided(decisions);
      if (!again) {
        run.wakeAt(decisions.wakeAt().orElse(null));
      }
    }
  }

  /**
   * Carries out decisions; returns whether another pass may decide more (a release or failure
   * happened, or another run took what a start was to get, which the next pass then sees).
   */
  private boolean act(Decisions decisions) {
    boolean progressed = false;
    deferred.clear();
    List<Decision.Start> candidates = new ArrayList<>();
    Instant releasedAt = null; // one instant for the pass's releases, which the journal then stores as one row
    for (Decision d : decisions.actions()) {
      Instant now = run.now();
      if (d instanceof Decision.Release) {
        releasedAt = releasedAt == null ? now : releasedAt;
        run.record(d.task(), new TaskEvent.Released(releasedAt));
      } else if (d instanceof Decision.Fail fail) {
        run.record(d.task(), new TaskEvent.Settled(now, TaskState.FAILED, fail.reason()));
        progressed = true;
      } else if (d instanceof Decision.Settle settle) {
        run.record(d.task(), new TaskEvent.Settled(now, settle.state(), settle.reason()));
        progressed = true;
      } else if (d instanceof Decision.Kill kill) {
        run.executions().kill(kill);
      } else if (d instanceof Decision.Train train) {
        if (deferredByHost(d.task(), train.placement())) {
          continue;
        }
        run.send(d.task(), ControlCommand.train(train.placement().device()));
        run.record(d.task(), new TaskEvent.Trained(now, train.train(), train.placement()));
      } else if (d instanceof Decision.Resume) {
        run.record(d.task(), new TaskEvent.Staged(now, TaskState.LOADED));
        progressed = true;
      } else if (d instanceof Decision.Exit exit) {
        run.askToExit(exit);
      } else if (d instanceof Decision.Start start) {
        candidates.add(start);
      }
    }
    List<Decision.Start> starts = launched(candidates);
    if (!starts.isEmpty()) {
      // Write-ahead: every launch of this pass survives a crash of Berth before any of its processes exists.
      run.commitSoon();
      run.spawn(starts);
    }
    for (Decision.Start start : starts) {
      // A process that could not start ended its attempt at once: decide again for its retry or
      // its dependants instead of waiting for the next probe tick.
      progressed |= !run.state().task(start.task()).state().hasProcess();
    }
    if (!deferred.isEmpty()) {
      // Decide again only when another run's holdings changed, which the next pass then sees.
      progressed |= readings.lookAgain();
    }
    return progressed;
  }

  /**
   * Journals the launches of the starts whose reservations the host ledger gave, all taken in one
   * ledger step; the others are deferred with why.
   */
  private List<Decision.Start> launched(List<Decision.Start> candidates) {
    List<Optional<Refusal>> refused = share.takeAll(candidates.stream()
        .map(s -> new HostShare.Start(run.state().task(s.task()), s.placement())).toList(), readings.snapshot());
    List<Decision.Start> starts = new ArrayList<>();
    Instant now = run.now();
    for (int i = 0; i < candidates.size(); i++) {
      Decision.Start start = candidates.get(i);
      if (refused.get(i).isPresent()) {
        deferred.add(new Waiting(start.task(), List.of(refused.get(i).get())));
        continue;
      }
      TaskSpec spec = run.state().task(start.task()).spec();
      run.record(start.task(), new TaskEvent.Launched(now, start.attempt(), start.placement(), -1, spec.twoStage(),
          start.learned()));
      starts.add(start);
    }
    return starts;
  }

  private boolean deferredByHost(TaskId task, Placement placement) {
    Optional<Refusal> refused = share.take(run.state().task(task), placement, readings.snapshot());
    refused.ifPresent(r -> deferred.add(new Waiting(task, List.of(r))));
    return refused.isPresent();
  }
}
