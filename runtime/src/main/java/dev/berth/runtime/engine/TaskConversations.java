package dev.berth.runtime.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Endings;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.AtomicFiles;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.Stage;
import dev.berth.protocol.TaskMessage;
import dev.berth.protocol.TaskPhase;
import dev.berth.report.ResultFile;
import dev.berth.spi.Execution;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What two-stage tasks say, made into their events: each message means the task's next event, or
 * is one the protocol allows at that point and changes nothing, or breaks the protocol (a result
 * before training, {@code finished} while loading, a second connection, a malformed line), which
 * ends the attempt as failed with that reason: Berth stops the process and no longer listens to
 * it. A connection that ends while its process lives on ends the attempt too, after a grace period
 * in which the process's own exit may still come. Loop thread only.
 *
 * <p>A task's items and result go to {@code items.json} and {@code result.json} in its folder,
 * flushed to disk; the result when the task reports its train stage finished, before it counts as
 * trained, so a {@code result.json} is always that of a finished train stage.
 */
final class TaskConversations implements TwoStageChannel.Handler {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the conversations need of the run around them; the engine's loop is the one implementation. */
  interface Context {
    /** The run's tasks, read only. */
    RunState state();

    RunLayout layout();

    Instant now();

    void record(TaskId id, TaskEvent event);

    LiveExecutions executions();

    /** Sends a command to the two-stage task. */
    void send(TaskId id, ControlCommand command);

    /** Stops listening to the two-stage task's connection. */
    void hangUp(TaskId id);

    /**
     * Ends the attempt whose process exited before its connection ended, if it is this one; returns
     * whether there was such an exit (see {@link AttemptExits#release}).
     */
    boolean releaseExit(TaskId id, int attempt);

    /** Runs {@code step} on the loop thread once the grace period a process gets to end by itself is over. */
    void afterGrace(Runnable step);
  }

  private final Context run;
  private final Map<TaskId, Map<String, Object>> items = new TreeMap<>();
  private final Map<TaskId, Map<String, Object>> results = new TreeMap<>();

  TaskConversations(Context run) {
    this.run = run;
  }

  @Override
  public void message(TaskId id, int attempt, TaskMessage message) {
    TaskRecord r = run.state().task(id);
    if (!isCurrent(r, attempt)) {
      return; // a late message from an attempt that has ended
    }
    if (message instanceof TaskMessage.Item item) {
      items.computeIfAbsent(id, k -> new LinkedHashMap<>()).put(item.key(), item.value());
      write(taskDir(r).resolve("items.json"), items.get(id));
      return;
    }
    TaskState s = r.state();
    if (s != TaskState.TRAINED) { // once finished, its result is kept whatever it says while it waits for exit
      answer(r, s, message).ifPresent(sent -> breakOff(r, attempt, "sent " + sent + " " + Endings.during(s)));
    }
  }

  @Override
  public void disconnected(TaskId id, int attempt) {
    if (run.releaseExit(id, attempt)) {
      return; // its process has exited: the exit ends the attempt
    }
    TaskRecord r = run.state().task(id);
    Execution e = run.executions().get(id);
    if (!isCurrent(r, attempt) || r.state() == TaskState.TRAINED || run.executions().isEnding(id) || e == null) {
      return;
    }
    String why = "closed its control channel " + Endings.during(r.state()) + " and did not exit";
    run.afterGrace(() -> {
      if (run.executions().get(id) == e && e.isAlive() && !run.executions().isEnding(id)) {
        run.executions().kill(new Decision.Kill(id, Outcome.FAILED, why));
      }
    });
  }

  @Override
  public void broken(TaskId id, int attempt, String reason) {
    TaskRecord r = run.state().task(id);
    if (isCurrent(r, attempt) && r.state() != TaskState.TRAINED) {
      breakOff(r, attempt, reason + " " + Endings.during(r.state()));
    }
  }

  /** Acts on a message; returns what was sent when the protocol does not allow it here. */
  private Optional<String> answer(TaskRecord r, TaskState s, TaskMessage message) {
    TaskId id = r.spec().id();
    Instant now = run.now();
    if (message instanceof TaskMessage.Hello) {
      if (s != TaskState.AVAILABLE) {
        return Optional.of("a second hello");
      }
      run.send(id, ControlCommand.load());
    } else if (message instanceof TaskMessage.Status status) {
      return status(id, s, status.status(), now);
    } else if (message instanceof TaskMessage.Result result) {
      if (s != TaskState.TRAINING) {
        return Optional.of("a result");
      }
      results.put(id, result.result());
    } else if (message instanceof TaskMessage.Finished) {
      if (s != TaskState.TRAINING) {
        return Optional.of("'finished'");
      }
      Map<String, Object> result = results.remove(id);
      if (result != null) {
        write(taskDir(r).resolve(ResultFile.NAME), result);
      }
      run.record(id, new TaskEvent.Staged(now, TaskState.TRAINED));
    } else if (message instanceof TaskMessage.Oom oom) {
      Outcome kind = oom.stage() == Stage.LOAD ? Outcome.HOST_OOM : Outcome.GPU_OOM;
      return report(id, s, oom.stage(), kind, oom.message(), "out of memory");
    } else if (message instanceof TaskMessage.Failure f) {
      String text = f.traceback().isBlank() ? f.message() : f.message() + "\n" + f.traceback();
      return report(id, s, f.stage(), Outcome.FAILED, text, "an exception (" + f.message() + ")");
    }
    return Optional.empty();
  }

  /**
   * A status moves a task through its load stage; the others repeat what Berth knows. {@code
   * WAITING} is also allowed while training: after a GPU out-of-memory error it may cross the next
   * train command.
   */
  private Optional<String> status(TaskId id, TaskState s, TaskPhase phase, Instant now) {
    if (phase == TaskPhase.LOADING && s == TaskState.AVAILABLE) {
      run.record(id, new TaskEvent.Staged(now, TaskState.LOADING));
    } else if (phase == TaskPhase.WAITING && s == TaskState.LOADING) {
      run.record(id, new TaskEvent.Staged(now, TaskState.LOADED));
    } else {
      boolean repeats = switch (phase) {
        case LOADING -> s == TaskState.LOADING;
        case WAITING -> s != TaskState.AVAILABLE;
        case TRAINING -> s == TaskState.TRAINING;
      };
      return repeats ? Optional.empty() : Optional.of("status " + phase);
    }
    return Optional.empty();
  }

  /** Out of memory or an exception, in the stage the task is in. */
  private Optional<String> report(TaskId id, TaskState s, Stage stage, Outcome kind, String text, String what) {
    boolean loading = s == TaskState.AVAILABLE || s == TaskState.LOADING;
    if (stage != (loading ? Stage.LOAD : s == TaskState.TRAINING ? Stage.TRAIN : null)) {
      return Optional.of(what + " for its " + stage + " stage");
    }
    run.record(id, new TaskEvent.Reported(run.now(), kind, stage.name(), text));
    return Optional.empty();
  }

  /** The attempt broke the protocol: it fails for this reason, and nothing more it says counts. */
  private void breakOff(TaskRecord r, int attempt, String reason) {
    TaskId id = r.spec().id();
    if (run.executions().isEnding(id)) {
      return; // already being ended, for a reason of Berth's own
    }
    Decision.Kill kill = new Decision.Kill(id, Outcome.FAILED, "broke the control protocol: " + reason);
    if (run.executions().get(id) != null) {
      run.executions().kill(kill);
    } else {
      run.executions().explain(kill); // its process has exited already; its exit ends the attempt for this reason
    }
    run.hangUp(id);
    run.releaseExit(id, attempt);
  }

  private static boolean isCurrent(TaskRecord r, int attempt) {
    return r.history().currentLaunch().map(l -> l.attempt() == attempt).orElse(false);
  }

  private Path taskDir(TaskRecord r) {
    return run.layout().taskDir(r.spec());
  }

  /** Writes JSON durably: the result counts only once it is on disk. */
  private static void write(Path file, Object value) {
    try {
      AtomicFiles.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(value));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
