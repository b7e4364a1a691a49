package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskPattern;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.DependantsFirst;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.protocol.ControlCommand;
import dev.berth.spi.Execution;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Ends tasks and processes on request: a cancelled task without a process is settled, one with a
 * process is killed, dependants before their parents ({@link DependantsFirst}), so that a cluster
 * holding a dependant for its parent never sees the parent go first; a run-wide cancel does so for every task; an interruption kills every process
 * and leaves the rest to a resume; a two-stage process the scheduler is
 * done with is asked to exit, and terminated when it has not after a grace period. Loop thread only.
 */
final class Terminations {

  /** What the terminations need of the run around them; the engine's loop is the one implementation. */
  interface Context {
    /** The run's tasks, read only. */
    RunState state();

    Instant now();

    void record(TaskId id, TaskEvent event);

    LiveExecutions executions();

    /** Sends a command to the two-stage task. */
    void send(TaskId id, ControlCommand command);

    /** Runs {@code step} on the loop thread once the grace period a process gets to end by itself is over. */
    void afterGrace(Runnable step);
  }

  private final Context run;
  private String runReason;
  private String interruptReason;

  Terminations(Context run) {
    this.run = run;
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
    for (TaskId id : DependantsFirst.order(run.state(), run.executions().tasks())) {
      run.executions().kill(new Decision.Kill(id, Outcome.CANCELLED, reason));
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
    for (TaskId id : DependantsFirst.order(run.state(), run.executions().tasks())) {
      run.executions().kill(new Decision.Kill(id, Outcome.INTERRUPTED, reason));
    }
  }

  /** After a run-wide cancel, every task without a process ends as cancelled, including retries. */
  void settleCancelled() {
    Instant now = run.now();
    for (TaskRecord r : run.state().tasks()) {
      if (!r.state().isTerminal() && !r.state().hasProcess()) {
        run.record(r.spec().id(), new TaskEvent.Settled(now, TaskState.CANCELLED, runReason));
      }
    }
  }

  /**
   * Cancels, as {@link #cancelTask}, every task matching one of the patterns (ids, globs, {@code group:NAME}),
   * dependants before their parents.
   */
  void cancelMatching(List<String> patterns, String reason) {
    List<TaskId> matching = new ArrayList<>();
    for (TaskRecord r : run.state().tasks()) {
      if (patterns.stream().anyMatch(p -> TaskPattern.selects(p, r.spec()))) {
        matching.add(r.spec().id());
      }
    }
    DependantsFirst.order(run.state(), matching).forEach(id -> cancelTask(id, reason));
  }

  /** Cancels one task; an unknown or ended task is ignored. */
  void cancelTask(TaskId id, String reason) {
    TaskRecord r;
    try {
      r = run.state().task(id);
    } catch (IllegalArgumentException unknown) {
      return;
    }
    if (r.state().isTerminal()) {
      return;
    }
    if (r.state().hasProcess()) {
      run.executions().kill(new Decision.Kill(id, Outcome.CANCELLED, reason));
    } else {
      run.record(id, new TaskEvent.Settled(run.now(), TaskState.CANCELLED, reason));
    }
  }

  /**
   * Asks a two-stage task's process to exit, and terminates it if it has not after a grace period.
   * Unless the task's history explains the ending (it finished, or reported trouble), the exit's
   * reason does: it fails for it.
   */
  void askToExit(Decision.Exit exit) {
    TaskId id = exit.task();
    if (!run.executions().markExiting(id)) {
      return;
    }
    TaskState s = run.state().task(id).state();
    if (s != TaskState.TRAINED && s != TaskState.OUT_OF_MEMORY) {
      run.executions().explain(new Decision.Kill(id, Outcome.FAILED, exit.reason()));
    }
    run.send(id, ControlCommand.exit());
    Execution e = run.executions().get(id);
    run.afterGrace(() -> {
      if (run.executions().get(id) == e && e != null && e.isAlive()) {
        e.terminate(LiveExecutions.TERMINATE_GRACE_MILLIS);
      }
    });
  }
}
