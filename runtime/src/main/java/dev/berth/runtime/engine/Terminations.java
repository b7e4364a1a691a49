package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskPattern;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.protocol.ControlCommand;
import dev.berth.spi.Execution;
import dev.berth.spi.Timers;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.function.Consumer;

/**
 * Ends tasks and processes on request: a cancelled task without a process is settled, one with a
 * process is killed; a run-wide cancel does so for every task; an interruption kills every process
 * and leaves the rest to a resume; a two-stage process the scheduler is
 * done with is asked to exit, and terminated when it has not after a grace period. Loop thread only.
 */
final class Terminations {

  private final RunState state;
  private final EventRecorder recorder;
  private final LiveExecutions executions;
  private final TwoStageChannel channel;
  private final Timers timers;
  private final InstantSource clock;
  private final Consumer<Runnable> toLoop;
  private String runReason;
  private String interruptReason;

  Terminations(RunState state, EventRecorder recorder, LiveExecutions executions, TwoStageChannel channel,
      Timers timers, InstantSource clock, Consumer<Runnable> toLoop) {
    this.state = state;
    this.recorder = recorder;
    this.executions = executions;
    this.channel = channel;
    this.timers = timers;
    this.clock = clock;
    this.toLoop = toLoop;
  }

  /** Whether the whole run was cancelled. */
  boolean runCancelled() {
    return runReason != null;
  }

  /** Cancels the whole run: no more starts, running processes are killed. Once only. */
  void cancelRun(String reason) {
    if (runReason != null) {
      return;
    }
    runReason = reason;
    for (TaskId id : executions.tasks()) {
      executions.kill(new Decision.Kill(id, Outcome.CANCELLED, reason));
    }
  }

  /** Whether Berth was stopped, and the run with it: it resumes later. */
  boolean runInterrupted() {
    return interruptReason != null;
  }

  /**
   * Interrupts the run because Berth stops: no more starts, running processes are killed, and their
   * attempts end as interrupted (unless they earned a success first); tasks without a process stay
   * as they are, to go on when the run resumes. Once only; nothing after a cancel of the whole run.
   */
  void interruptRun(String reason) {
    if (interruptReason != null || runReason != null) {
      return;
    }
    interruptReason = reason;
    for (TaskId id : executions.tasks()) {
      executions.kill(new Decision.Kill(id, Outcome.INTERRUPTED, reason));
    }
  }

  /** After a run-wide cancel, every task without a process ends as cancelled, including retries. */
  void settleCancelled() {
    Instant now = clock.instant();
    for (TaskRecord r : state.tasks()) {
      if (!r.state().isTerminal() && !r.state().hasProcess()) {
        recorder.record(r.spec().id(), new TaskEvent.Settled(now, TaskState.CANCELLED, runReason));
      }
    }
  }

  /** Cancels one task; an unknown or ended task is ignored. */
  /** Cancels, as {@link #cancelTask}, every task matching one of the patterns (ids, globs, {@code group:NAME}). */
  void cancelMatching(List<String> patterns, String reason) {
    for (TaskRecord r : state.tasks()) {
      if (patterns.stream().anyMatch(p -> TaskPattern.selects(p, r.spec()))) {
        cancelTask(r.spec().id(), reason);
      }
    }
  }

  void cancelTask(TaskId id, String reason) {
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
      executions.kill(new Decision.Kill(id, Outcome.CANCELLED, reason));
    } else {
      recorder.record(id, new TaskEvent.Settled(clock.instant(), TaskState.CANCELLED, reason));
    }
  }

  /**
   * Asks a two-stage task's process to exit, and terminates it if it has not after a grace period.
   * Unless the task's history explains the ending (it finished, or reported trouble), the exit's
   * reason does: it fails for it.
   */
  void askToExit(Decision.Exit exit) {
    TaskId id = exit.task();
    if (!executions.markExiting(id)) {
      return;
    }
    TaskState s = state.task(id).state();
    if (s != TaskState.TRAINED && s != TaskState.OUT_OF_MEMORY) {
      executions.explain(new Decision.Kill(id, Outcome.FAILED, exit.reason()));
    }
    channel.send(id, ControlCommand.exit());
    Execution e = executions.get(id);
    Duration grace = Duration.ofMillis(LiveExecutions.TERMINATE_GRACE_MILLIS);
    timers.schedule(grace, () -> toLoop.accept(() -> {
      if (executions.get(id) == e && e != null && e.isAlive()) {
        e.terminate(LiveExecutions.TERMINATE_GRACE_MILLIS);
      }
    }));
  }
}
