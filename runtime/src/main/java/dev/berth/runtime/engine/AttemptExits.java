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
import dev.berth.spi.Timers;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Consumer;

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

  private final HostReadings readings;
  private final RunState state;
  private final RunLayout layout;
  private final Attempts attempts;
  private final EventRecorder recorder;
  private final LiveExecutions executions;
  private final TwoStageChannel channel;
  private final Timers timers;
  private final InstantSource clock;
  private final Consumer<Runnable> toLoop;
  private final Map<TaskId, Parked> parked = new TreeMap<>();
  private final ExitMarks marks;

  /** An exit seen before its two-stage attempt's connection reported its end. */
  private record Parked(int attempt, Runnable end) {}

  AttemptExits(RunState state, RunLayout layout, Attempts attempts, EventRecorder recorder, LiveExecutions executions,
      TwoStageChannel channel, Timers timers, InstantSource clock, Consumer<Runnable> toLoop, HostReadings readings) {
    this.state = state;
    this.readings = readings;
    this.layout = layout;
    this.attempts = attempts;
    this.recorder = recorder;
    this.executions = executions;
    this.channel = channel;
    this.timers = timers;
    this.clock = clock;
    this.toLoop = toLoop;
    this.marks = ExitMarks.of(layout.runDir());
    executions.markKillsWith(this::markKill);
  }

  /**
   * Marks that Berth ends the task's running attempt for {@code kill}, before the signal goes out:
   * a resume that finds the attempt's exit marked but not journalled ends it as this kill, not as a
   * failure of the task's own.
   */
  private void markKill(Decision.Kill kill) {
    TaskRecord r = state.task(kill.task());
    r.history().currentLaunch().ifPresent(l -> marks.writeKill(layout.taskDir(r.spec()), l.attempt(), kill));
  }

  /**
   * Berth stops without its journal (it could not be written): the processes still running are
   * about to be killed, each marked as interrupted by this stop, so that a resume runs them again
   * rather than taking the kill for their failure.
   */
  void markStopping(String reason) {
    for (TaskId id : executions.tasks()) {
      if (state.task(id).state().hasProcess()) {
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
        toLoop.accept(() -> AttemptExits.this.exited(id, attempt, code));
      }

      @Override
      public void started(long pid, Optional<String> job) {
        toLoop.accept(() -> startedLate(id, attempt, pid, job));
      }
    };
  }

  /**
   * Journals the pid and id of an attempt that began to run after its launch, unless its launch
   * already saw them (the two race when the attempt starts just as its launch returns).
   */
  private void startedLate(TaskId id, int attempt, long pid, Optional<String> job) {
    TaskRecord r = state.task(id);
    if (!isCurrent(id, attempt) || r.state() != TaskState.RUNNING) {
      return;
    }
    Attempt current = r.history().attempts().get(r.history().attemptCount() - 1);
    if (pid > 0 && r.history().startedAt().isEmpty()) {
      recorder.record(id, new TaskEvent.Started(clock.instant(), attempt, pid));
    }
    if (job.isPresent() && current.clusterId().isEmpty()) {
      recorder.record(id, new TaskEvent.Submitted(clock.instant(), attempt, job.get()));
    }
  }

  /** Watches a process an earlier scheduler started; when it ends, its attempt ends as Recovery decides. */
  void adopt(TaskId id, AdoptedExecution execution) {
    executions.put(id, execution);
    int attempt = state.task(id).history().attemptCount();
    execution.onExit().thenRun(() -> toLoop.accept(() -> adoptedExited(id, execution, attempt)));
  }

  private void adoptedExited(TaskId id, AdoptedExecution execution, int attempt) {
    executions.remove(id);
    execution.endLeftovers();
    TaskRecord r = state.task(id);
    if (r.history().currentLaunch().map(l -> l.attempt() == attempt).orElse(false)) {
      Optional<Decision.Kill> kill = executions.takeKill(id);
      ExitMarks.Mark mark = marks.readAll().of(layout.taskDir(r.spec()), attempt);
      Instant now = clock.instant();
      recorder.record(id, mark.code().isPresent()
          ? Recovery.ended(r, layout, now, attempts, mark.code().getAsInt(), kill.or(() -> mark.killOf(id)))
          : kill.isPresent() ? Recovery.unlessFinished(attempts.ended(r, now, 143, kill, ""), r, layout)
          : Recovery.endOfAdopted(r, layout, now));
      if (kill.isEmpty() && state.task(id).state() == TaskState.INTERRUPTED) {
        // An earlier Berth's stop interrupted it, not this one's: it runs again, as a resume's own start releases such tasks.
        recorder.record(id, new TaskEvent.Released(now));
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
    Execution execution = executions.remove(id);
    Runnable end = () -> end(id, attempt, exitCode, execution);
    if (!state.task(id).spec().twoStage() || !isCurrent(id, attempt)) {
      end.run();
      return;
    }
    parked.put(id, new Parked(attempt, end));
    if (channel.isConnected(id)) {
      timers.schedule(Duration.ofMillis(LiveExecutions.TERMINATE_GRACE_MILLIS),
          () -> toLoop.accept(() -> release(id, attempt)));
    } else {
      toLoop.accept(() -> release(id, attempt)); // after the messages its ended connection already handed over
    }
  }

  private void end(TaskId id, int attempt, int exitCode, Execution execution) {
    executions.clearExiting(id);
    channel.forget(id);
    if (!isCurrent(id, attempt)) {
      return; // not the attempt the task is in now; nothing to end
    }
    TaskRecord r = state.task(id);
    String tail = exitCode == 0 ? "" : LogTails.read(layout.stderr(r.spec(), attempt), LogTails.STDERR_BYTES);
    Optional<ClusterVerdict> verdict = execution == null ? Optional.empty() : execution.verdict();
    MeasuredUsage usage = withGpuPeak(execution == null ? MeasuredUsage.NONE : execution.usage(), id);
    TaskEvent.Ended ending = attempts.ended(r, clock.instant(), exitCode, executions.takeKill(id), tail, verdict, usage);
    recorder.record(id, Recovery.unlessFinished(ending, r, layout));
  }

  /**
   * The executor's figures, with the GPU memory the probe saw the task's processes hold (sampled on
   * the probe interval) when the executor measured none.
   */
  private MeasuredUsage withGpuPeak(MeasuredUsage usage, TaskId id) {
    Long gpu = readings.takeGpuPeak(id).orElse(null);
    if (gpu == null || usage.peakGpuMemoryBytes().isPresent()) {
      return usage;
    }
    return new MeasuredUsage(usage.peakHostMemoryBytes(), usage.cpuSeconds(), OptionalLong.of(gpu), usage.exact());
  }

  private boolean isCurrent(TaskId id, int attempt) {
    return state.task(id).history().currentLaunch().map(l -> l.attempt() == attempt).orElse(false);
  }
}
