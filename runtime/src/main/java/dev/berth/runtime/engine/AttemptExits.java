package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.Attempts;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.LogTails;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What happens when an attempt's process ends: its exit code is marked in the task's folder at
 * once (so a resumed run finds it), and on the loop thread the attempt ends as the scheduler's
 * rules say, with the kill that ended it, the tail of its standard error and the cluster's verdict.
 *
 * <p>A two-stage task's last messages (its result, say) may still be on their way when its exit is
 * seen: its attempt ends once its connection has reported its end, which comes after every message
 * of the connection, or after a grace period when a process it left behind keeps the connection open.
 */
final class AttemptExits {

  /** What the attempts' ends need of the run around them; the engine's loop is the one implementation. */
  interface Context {
    /** The run's tasks, read only. */
    RunState state();

    RunLayout layout();

    Instant now();

    void record(TaskId id, TaskEvent event);

    LiveExecutions executions();

    /** Whether the two-stage task's connection is open. */
    boolean connected(TaskId id);

    /** Stops listening to the two-stage task's connection. */
    void hangUp(TaskId id);

    /** The most GPU memory the probes saw the task's processes hold since last asked (see {@link HostReadings}). */
    Optional<Long> takeGpuPeak(TaskId id);

    /** Runs {@code step} on the loop thread, after the messages already waiting there. */
    void toLoop(Runnable step);

    /** Runs {@code step} on the loop thread once the grace period a process gets to end by itself is over. */
    void afterGrace(Runnable step);
  }

  private final Context run;
  private final Attempts attempts;
  private final Map<TaskId, Parked> parked = new TreeMap<>();
  private final ExitMarks marks;

  /** An exit seen before its two-stage attempt's connection reported its end. */
  private record Parked(int attempt, Runnable end) {}

  AttemptExits(Context run, Attempts attempts) {
    this.run = run;
    this.attempts = attempts;
    this.marks = ExitMarks.of(run.layout().runDir());
    run.executions().markKillsWith(this::markKill);
  }

  /**
   * Marks that Berth ends the task's running attempt for {@code kill}, before the signal goes out:
   * a resume that finds the attempt's exit marked but not journalled ends it as this kill, not as a
   * failure of the task's own.
   */
  private void markKill(Decision.Kill kill) {
    TaskRecord r = run.state().task(kill.task());
    r.history().currentLaunch().ifPresent(l -> marks.writeKill(run.layout().taskDir(r.spec()), l.attempt(), kill));
  }

  /**
   * Berth stops without its journal (it could not be written): the processes still running are
   * about to be killed, each marked as interrupted by this stop, so that a resume runs them again
   * rather than taking the kill for their failure.
   */
  void markStopping(String reason) {
    for (TaskId id : run.executions().tasks()) {
      if (run.state().task(id).state().hasProcess()) {
        markKill(new Decision.Kill(id, Outcome.INTERRUPTED, reason));
      }
    }
  }

  /** The run's exit marks, which a resumed run reads to settle what was running. */
  ExitMarks marks() {
    return marks;
  }

  /**
   * What the executor calls, on its own thread, when the requested attempt's process exits, or begins
   * to run after its launch (a pool call that waited for an engine).
   */
  ExitListener listenerFor(LaunchRequest request) {
    TaskId id = request.task();
    int attempt = request.attempt();
    Path dir = request.workdir();
    return new ExitListener() {
      @Override
      public void exited(int code) {
        marks.write(dir, attempt, code);
        run.toLoop(() -> AttemptExits.this.exited(id, attempt, code));
      }

      @Override
      public void started(long pid, Optional<String> job) {
        run.toLoop(() -> startedLate(id, attempt, pid, job));
      }
    };
  }

  /**
   * Journals the pid and id of an attempt that began to run after its launch, unless its launch
   * already saw them (the two race when the attempt starts just as its launch returns).
   */
  private void startedLate(TaskId id, int attempt, long pid, Optional<String> job) {
    TaskRecord r = run.state().task(id);
    if (!isCurrent(id, attempt) || r.state() != TaskState.RUNNING) {
      return;
    }
    Attempt current = r.history().attempts().get(r.history().attemptCount() - 1);
    if (pid > 0 && r.history().startedAt().isEmpty()) {
      run.record(id, new TaskEvent.Started(run.now(), attempt, pid));
    }
    if (job.isPresent() && current.clusterId().isEmpty()) {
      run.record(id, new TaskEvent.Submitted(run.now(), attempt, job.get()));
    }
  }

  /** Watches a process an earlier scheduler started; when it ends, its attempt ends as Recovery decides. */
  void adopt(TaskId id, AdoptedExecution execution) {
    run.executions().put(id, execution);
    int attempt = run.state().task(id).history().attemptCount();
    execution.onExit().thenRun(() -> run.toLoop(() -> adoptedExited(id, execution, attempt)));
  }

  private void adoptedExited(TaskId id, AdoptedExecution execution, int attempt) {
    run.executions().remove(id);
    execution.endLeftovers();
    TaskRecord r = run.state().task(id);
    if (r.history().currentLaunch().map(l -> l.attempt() == attempt).orElse(false)) {
      Optional<Decision.Kill> kill = run.executions().takeKill(id);
      ExitMarks.Mark mark = marks.readAll().of(run.layout().taskDir(r.spec()), attempt);
      Instant now = run.now();
      run.record(id, mark.code().isPresent()
          ? Recovery.ended(r, run.layout(), now, attempts, mark.code().getAsInt(), kill.or(() -> mark.killOf(id)))
          : kill.isPresent() ? Recovery.unlessFinished(attempts.ended(r, now, 143, kill, ""), r, run.layout())
          : Recovery.endOfAdopted(r, run.layout(), now));
      if (kill.isEmpty() && run.state().task(id).state() == TaskState.INTERRUPTED) {
        // An earlier Berth's stop interrupted it, not this one's: it runs again, as a resume's own start releases such tasks.
        run.record(id, new TaskEvent.Released(now));
      }
    }
  }

  /**
   * Ends the attempt whose exit waits for its connection's end, if it is this one; returns whether
   * there was such an exit.
   */
  boolean release(TaskId id, int attempt) {
    Parked p = parked.get(id);
    if (p == null || p.attempt() != attempt) {
      return false;
    }
    parked.remove(id);
    p.end().run();
    return true;
  }

  private void exited(TaskId id, int attempt, int exitCode) {
    Execution execution = run.executions().remove(id);
    Runnable end = () -> end(id, attempt, exitCode, execution);
    if (!run.state().task(id).spec().twoStage() || !isCurrent(id, attempt)) {
      end.run();
      return;
    }
    parked.put(id, new Parked(attempt, end));
    if (run.connected(id)) {
      run.afterGrace(() -> release(id, attempt));
    } else {
      run.toLoop(() -> release(id, attempt)); // after the messages its ended connection already handed over
    }
  }

  private void end(TaskId id, int attempt, int exitCode, Execution execution) {
    run.executions().clearExiting(id);
    run.hangUp(id);
    if (!isCurrent(id, attempt)) {
      return; // not the attempt the task is in now; nothing to end
    }
    TaskRecord r = run.state().task(id);
    String tail = exitCode == 0 ? "" : LogTails.read(run.layout().stderr(r.spec(), attempt), LogTails.STDERR_BYTES);
    Optional<ClusterVerdict> verdict = execution == null ? Optional.empty() : execution.verdict();
    MeasuredUsage usage = withGpuPeak(execution == null ? MeasuredUsage.NONE : execution.usage(), id);
    TaskEvent.Ended ending = attempts.ended(r, run.now(), exitCode, run.executions().takeKill(id), tail, verdict, usage);
    if (execution != null) {
      execution.accounting().ifPresent(a -> run.record(id, new TaskEvent.Accounted(run.now(), attempt, a)));
    }
    run.record(id, Recovery.unlessFinished(ending, r, run.layout()));
  }

  /**
   * The executor's figures, with the GPU memory the probe saw the task's processes hold (sampled on
   * the probe interval) when the executor measured none.
   */
  private MeasuredUsage withGpuPeak(MeasuredUsage usage, TaskId id) {
    Long gpu = run.takeGpuPeak(id).orElse(null);
    if (gpu == null || usage.peakGpuMemoryBytes().isPresent()) {
      return usage;
    }
    return new MeasuredUsage(usage.peakHostMemoryBytes(), usage.cpuSeconds(), OptionalLong.of(gpu), usage.exact());
  }

  private boolean isCurrent(TaskId id, int attempt) {
    return run.state().task(id).history().currentLaunch().map(l -> l.attempt() == attempt).orElse(false);
  }
}
