package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.Attempts;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Endings;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.LogTails;
import dev.berth.report.ResultFile;
import dev.berth.spi.Timers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Settles the attempts that were running when the previous scheduler of a run stopped. Each one
 * is found by the variables Berth started its supervisor with (or, failing that, by a recorded pid
 * and the process's start time, so a recycled pid is not mistaken for it) and then:
 * <ul>
 *   <li>ends with its real exit code when its exit mark was written, by the scheduler or, while no
 *       scheduler was alive, by its supervisor; an exit after a kill the scheduler marked (it was
 *       stopping, or cancelling) ends as that kill does;
 *   <li>is adopted and awaited when it is a one-stage task still running, and ends with the exit
 *       code its supervisor marks;
 *   <li>is ended otherwise, its exit unknown: succeeded if it left a {@code result.json} newer than
 *       its start, else interrupted (a two-stage task's channel died with the scheduler, so its
 *       process is stopped), and runs again without using any retry budget.
 * </ul>
 * What the run's tasks left running (children that outlived their task's process) is killed,
 * except what belongs to an adopted task, which is ended when that task's process ends.
 */
final class Recovery {

  /** How far a process's start may be from its recorded launch and still be the same process. */
  private static final Duration SAME_PROCESS = Duration.ofSeconds(10);

  interface Recorder {
    void record(TaskId task, TaskEvent event);
  }

  interface Adopter {
    void adopt(TaskId task, AdoptedExecution execution);
  }

  private Recovery() {}

  static void settle(RunState state, RunLayout layout, Instant now, Attempts attempts, Recorder recorder,
      Adopter adopter, ExitMarks marks, ProcessTable processes, Timers timers) {
    Map<TaskId, Orphans.Orphan> orphans = Orphans.find(layout.runDir(), processes);
    ExitMarks.Read read = marks.readAll();
    List<String> spared = new ArrayList<>();
    for (Map.Entry<TaskId, TaskEvent.Launched> e : new ArrayList<>(state.running().entrySet())) {
      TaskRecord r = state.task(e.getKey());
      TaskEvent.Launched launch = e.getValue();
      recoverFinish(r, layout, now, recorder);
      ExitMarks.Mark mark = read.of(layout.taskDir(r.spec()), launch.attempt());
      if (mark.code().isPresent()) {
        recorder.record(r.spec().id(), ended(r, layout, now, attempts, mark.code().getAsInt(), mark.killOf(r.spec().id())));
        continue;
      }
      Optional<ProcessHandle> alive = sameProcess(launch, processes)
          .or(() -> Optional.ofNullable(orphans.get(r.spec().id()))
              .filter(o -> o.attempt() == launch.attempt()).map(Orphans.Orphan::process));
      if (alive.isPresent() && !r.spec().twoStage() && r.state() == TaskState.RUNNING) {
        adopter.adopt(r.spec().id(),
            AdoptedExecution.of(alive.get(), layout.runDir(), r.spec().id(), launch.attempt(), processes, timers));
        spared.add(AdoptedExecution.taskEntry(r.spec().id()));
        continue;
      }
      alive.ifPresent(p -> AdoptedExecution.of(p, layout.runDir(), r.spec().id(), launch.attempt(), processes, timers).terminate(2_000));
      // Never seen to start, no process, no exit mark: its supervisor never ran (once it runs, it
      // marks the exit), so it used nothing, and the reports do not show it holding its
      // reservation while no Berth was alive.
      boolean neverStarted = alive.isEmpty() && r.history().startedAt().isEmpty();
      recorder.record(r.spec().id(), endOfAdopted(r, layout, now, neverStarted ? launch.at() : now));
    }
    processes.endLeftovers(List.of(AdoptedExecution.runEntry(layout.runDir())), spared, List.of());
  }

  /**
   * Records the finished train stage of a two-stage task that the earlier Berth heard but did not
   * journal: it writes {@code result.json} when {@code finished} arrives, before the task counts as
   * trained, so a {@code result.json} written since the current train call began is that finish
   * (the task then exits 0, which a journal still at training would take for a failure).
   */
  private static void recoverFinish(TaskRecord r, RunLayout layout, Instant now, Recorder recorder) {
    if (!r.spec().twoStage() || r.state() != TaskState.TRAINING) {
      return;
    }
    Optional<Instant> trainCall = r.history().events().stream().filter(TaskEvent.Trained.class::isInstance)
        .map(TaskEvent::at).reduce((first, last) -> last);
    if (trainCall.isPresent() && resultWrittenSince(layout.taskDir(r.spec()), trainCall.get())) {
      recorder.record(r.spec().id(), new TaskEvent.Staged(now, TaskState.TRAINED));
    }
  }

  /** Tasks an earlier Berth's stop interrupted start again: each is released, to wait for resources. */
  static void releaseInterrupted(RunState state, Instant now, Recorder recorder) {
    for (TaskRecord r : state.tasks()) {
      if (r.state() == TaskState.INTERRUPTED) {
        recorder.record(r.spec().id(), new TaskEvent.Released(now));
      }
    }
  }

  /**
   * How an attempt whose exit code was marked ends: as the scheduler would have ended it on seeing
   * the exit, after the kill it had sent, if any.
   */
  static TaskEvent.Ended ended(TaskRecord r, RunLayout layout, Instant now, Attempts attempts, int code,
      Optional<Decision.Kill> kill) {
    if (code == 0 && kill.isEmpty() && r.spec().twoStage() && r.state() == TaskState.TRAINING) {
      // A task exits 0 in its train stage once it sent its result and 'finished' (no result.json
      // says a Berth read them): they went to the Berth that died, and are lost with it.
      return new TaskEvent.Ended(now, Outcome.INTERRUPTED, 0, "exited 0 during training while Berth was stopped:"
          + " its result went to the Berth that stopped and is lost; the task runs again", TaskState.READY);
    }
    int attempt = r.history().currentLaunch().orElseThrow().attempt();
    String tail = code == 0 ? "" : LogTails.read(layout.stderr(r.spec(), attempt), LogTails.STDERR_BYTES);
    return unlessFinished(attempts.ended(r, now, code, kill, tail), r, layout);
  }

  /** How an attempt whose exit code Berth could not see ends. */
  static TaskEvent.Ended endOfAdopted(TaskRecord r, RunLayout layout, Instant now) {
    return endOfAdopted(r, layout, now, now);
  }

  /**
   * As {@link #endOfAdopted(TaskRecord, RunLayout, Instant)}, an interruption ending at
   * {@code interruptedAt} (a success, which a result.json shows ran, ends {@code now}).
   */
  private static TaskEvent.Ended endOfAdopted(TaskRecord r, RunLayout layout, Instant now, Instant interruptedAt) {
    if (resultKept(r, layout)) {
      return new TaskEvent.Ended(now, Outcome.SUCCEEDED, null,
          "ended while Berth was stopped; its result.json is kept", TaskState.SUCCEEDED);
    }
    return Endings.readyAgain(interruptedAt,
        "the scheduler stopped while this attempt ran, and its exit is unknown; the task runs again");
  }

  /**
   * An interrupted attempt's ending, unless the attempt finished its work first: a one-stage task
   * that wrote its {@code result.json} during the attempt (Berth's stop killed it on its way out)
   * keeps its success, as after a crash; otherwise the interrupted ending stands.
   */
  static TaskEvent.Ended unlessFinished(TaskEvent.Ended interrupted, TaskRecord r, RunLayout layout) {
    if (interrupted.outcome() != Outcome.INTERRUPTED || r.spec().twoStage() || !resultKept(r, layout)) {
      return interrupted;
    }
    return new TaskEvent.Ended(interrupted.at(), Outcome.SUCCEEDED, interrupted.exitCode(),
        "finished while Berth was stopping; its result.json is kept", TaskState.SUCCEEDED, interrupted.usage());
  }

  /** Whether the running attempt left its result: a two-stage task reported it, a one-stage one wrote result.json. */
  private static boolean resultKept(TaskRecord r, RunLayout layout) {
    // A two-stage task's result.json counts once it reported its train stage finished: then it is TRAINED.
    TaskEvent.Launched launch = r.history().currentLaunch().orElseThrow();
    return r.spec().twoStage() ? r.state() == TaskState.TRAINED
        : resultWrittenSince(layout.taskDir(r.spec()), launch.at());
  }

  private static boolean resultWrittenSince(Path taskDir, Instant since) {
    try {
      Path result = taskDir.resolve(ResultFile.NAME);
      return Files.isRegularFile(result) && !Files.getLastModifiedTime(result).toInstant().isBefore(since.minusSeconds(1));
    } catch (IOException e) {
      return false;
    }
  }

  private static Optional<ProcessHandle> sameProcess(TaskEvent.Launched launch, ProcessTable processes) {
    if (launch.pid() <= 0) {
      return Optional.empty();
    }
    return processes.of(launch.pid())
        .filter(ProcessHandle::isAlive)
        .filter(p -> p.info().startInstant()
            .map(start -> Duration.between(start, launch.at()).abs().compareTo(SAME_PROCESS) <= 0)
            .orElse(false));
  }
}
