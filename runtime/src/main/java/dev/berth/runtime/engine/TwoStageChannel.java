package dev.berth.runtime.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.AtomicFiles;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.Stage;
import dev.berth.protocol.TaskMessage;
import dev.berth.runtime.control.channel.ControlListener;
import dev.berth.runtime.control.channel.ControlServer;
import dev.berth.runtime.control.channel.ControlSocketPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The engine's side of the two-stage protocol: the run's control socket, the environment a
 * two-stage task gets, and the translation of the task's messages into task events. Messages
 * arrive on channel threads and are handed to the engine loop through {@code toLoop}; everything
 * else runs on the loop thread.
 *
 * <p>A task's result map and items are written to {@code result.json} and {@code items.json} in its
 * folder, flushed to disk, before the task counts as finished: the report and every later reader
 * take results from there.
 */
final class TwoStageChannel implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the engine does with a message, on its loop thread. */
  interface Handler {
    /** Records an event for a task. */
    void record(TaskId task, TaskEvent event);

    /** The task's record, to check its state and attempt. */
    TaskRecord task(TaskId task);

    /** The task's folder. */
    Path taskDir(TaskId task);

    /** The current time. */
    Instant now();
  }

  private final Path runDir;
  private final Consumer<Runnable> toLoop;
  private final Handler handler;
  private final Map<TaskId, Map<String, Object>> items = new TreeMap<>();
  private ControlServer server;

  TwoStageChannel(Path runDir, Consumer<Runnable> toLoop, Handler handler) {
    this.runDir = runDir;
    this.toLoop = toLoop;
    this.handler = handler;
  }

  /** The variables a two-stage attempt needs to reach Berth; opens the socket on first use. */
  SortedMap<String, String> register(TaskId task, int attempt) {
    ControlServer s = server();
    SortedMap<String, String> env = new TreeMap<>();
    env.put("BERTH_CONTROL", s.socketPath().toString());
    env.put("BERTH_TOKEN", s.register(task, attempt));
    return env;
  }

  /** Sends a command to a task's process. */
  void send(TaskId task, ControlCommand command) {
    if (server != null) {
      server.send(task, command);
    }
  }

  /** Drops an attempt's connection once its process has exited. */
  void forget(TaskId task) {
    if (server != null) {
      server.forget(task);
    }
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }

  private ControlServer server() {
    if (server == null) {
      try {
        server = ControlServer.open(ControlSocketPath.forRun(runDir), new ControlListener() {
          @Override
          public void message(TaskId task, int attempt, TaskMessage message) {
            toLoop.accept(() -> handle(task, attempt, message));
          }

          @Override
          public void disconnected(TaskId task, int attempt) {
            // the process's exit, which always follows, is what ends the attempt
          }

          @Override
          public void problem(String description) {
            System.err.println("berth: control channel: " + description);
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException("cannot open the control socket for two-stage tasks", e);
      }
    }
    return server;
  }

  private void handle(TaskId id, int attempt, TaskMessage message) {
    TaskRecord r = handler.task(id);
    Optional<TaskEvent.Launched> launch = r.history().currentLaunch();
    if (launch.isEmpty() || launch.get().attempt() != attempt) {
      return; // a late message from an attempt that has ended
    }
    TaskState state = r.state();
    Instant now = handler.now();
    if (message instanceof TaskMessage.Hello) {
      send(id, ControlCommand.load());
    } else if (message instanceof TaskMessage.Status s) {
      if (s.status().name().equals("LOADING") && state == TaskState.AVAILABLE) {
        handler.record(id, new TaskEvent.Staged(now, TaskState.LOADING));
      } else if (s.status().name().equals("WAITING") && state == TaskState.LOADING) {
        handler.record(id, new TaskEvent.Staged(now, TaskState.LOADED));
      }
    } else if (message instanceof TaskMessage.Item item) {
      items.computeIfAbsent(id, k -> new LinkedHashMap<>()).put(item.key(), item.value());
      write(handler.taskDir(id).resolve("items.json"), items.get(id));
    } else if (message instanceof TaskMessage.Result result) {
      write(handler.taskDir(id).resolve("result.json"), result.result());
    } else if (message instanceof TaskMessage.Finished && state == TaskState.TRAINING) {
      handler.record(id, new TaskEvent.Staged(now, TaskState.TRAINED));
    } else if (message instanceof TaskMessage.Oom oom && isStage(state)) {
      Outcome kind = oom.stage() == Stage.LOAD ? Outcome.HOST_OOM : Outcome.GPU_OOM;
      handler.record(id, new TaskEvent.Reported(now, kind, oom.stage().name(), oom.message()));
    } else if (message instanceof TaskMessage.Failure f && isStage(state)) {
      String text = f.traceback() == null || f.traceback().isBlank() ? f.message() : f.message() + "\n" + f.traceback();
      handler.record(id, new TaskEvent.Reported(now, Outcome.FAILED, f.stage().name(), text));
    }
  }

  private static boolean isStage(TaskState s) {
    return s == TaskState.AVAILABLE || s == TaskState.LOADING || s == TaskState.TRAINING;
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
