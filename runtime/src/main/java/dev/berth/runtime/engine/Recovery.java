package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.Attempts;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.LogTails;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;

/**
 * Settles the attempts that were running when the previous scheduler of a run stopped. Each one
 * is found by the variables Berth started it with (or, failing that, by a recorded pid and the
 * process's start time, so a recycled pid is not mistaken for it) and then:
 * <ul>
 *   <li>ends with its real exit code when its exit mark was written before the scheduler stopped;
 *   <li>is adopted and awaited when it is a one-stage task still running — Berth cannot learn an
 *       adopted process's exit code, so when it ends it counts as succeeded only if it left a
 *       {@code result.json} newer than its start, and otherwise as interrupted;
 *   <li>is ended as interrupted otherwise (a two-stage task's channel died with the scheduler, so
 *       its process is stopped), and runs again without using any retry budget.
 * </ul>
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
      Adopter adopter, ExitMarks marks, ProcessTable processes) {
    Map<TaskId, Orphans.Orphan> orphans = Orphans.find(layout.runDir(), processes);
    SortedMap<String, Integer> codes = marks.readAll();
    for (Map.Entry<TaskId, TaskEvent.Launched> e : new ArrayList<>(state.running().entrySet())) {
      TaskRecord r = state.task(e.getKey());
      TaskEvent.Launched launch = e.getValue();
      Path dir = layout.taskDir(r.spec());
      OptionalInt code = ExitMarks.read(codes, dir, launch.attempt());
      if (code.isPresent()) {
        String tail = code.getAsInt() == 0 ? "" : LogTails.read(layout.stderr(r.spec(), launch.attempt()), LogTails.STDERR_BYTES);
        recorder.record(r.spec().id(), attempts.ended(r, now, code.getAsInt(), Optional.empty(), tail));
        continue;
      }
      Optional<ProcessHandle> alive = sameProcess(launch, processes)
          .or(() -> Optional.ofNullable(orphans.get(r.spec().id()))
              .filter(o -> o.attempt() == launch.attempt()).map(Orphans.Orphan::process));
      if (alive.isPresent() && !r.spec().twoStage() && r.state() == TaskState.RUNNING) {
        adopter.adopt(r.spec().id(), new AdoptedExecution(alive.get()));
        continue;
      }
      alive.ifPresent(p -> new AdoptedExecution(p).terminate(2_000));
      recorder.record(r.spec().id(), endOfAdopted(r, layout, now, codes));
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

  /** How an attempt whose exit code Berth could not see ends. */
  static TaskEvent.Ended endOfAdopted(TaskRecord r, RunLayout layout, Instant now, SortedMap<String, Integer> codes) {
    TaskEvent.Launched launch = r.history().currentLaunch().orElseThrow();
    OptionalInt code = ExitMarks.read(codes, layout.taskDir(r.spec()), launch.attempt());
    if (resultKept(r, layout)) {
      return new TaskEvent.Ended(now, Outcome.SUCCEEDED, code.isPresent() ? code.getAsInt() : null,
          "ended while Berth was stopped; its result.json is kept", TaskState.SUCCEEDED);
    }
    return new TaskEvent.Ended(now, Outcome.INTERRUPTED, null,
        "the scheduler stopped while this attempt ran; the task runs again", TaskState.READY);
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
      Path result = taskDir.resolve("result.json");
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
