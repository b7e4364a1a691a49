package dev.berth.task.worker;

import dev.berth.protocol.ControlCodec;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.ControlProtocolException;
import dev.berth.protocol.LineChannel;
import dev.berth.protocol.MessageJson;
import dev.berth.protocol.Stage;
import dev.berth.protocol.TaskMessage;
import dev.berth.protocol.TaskPhase;
import dev.berth.task.BerthTask;
import dev.berth.task.Device;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.IntConsumer;

/**
 * Runs one task process: under Berth, the control protocol (see {@code docs/protocol.md}); by
 * hand, without {@code BERTH_CONTROL}, load then train on the CPU with the result printed.
 */
final class Worker {

  static final int SUCCESS = 0;
  static final int SETUP_ERROR = 2;
  static final int FAILED = 3;

  /** Marks the end of the command stream in the queue; compared by identity. */
  private static final String END = new String("end of stream");

  private enum Phase { NEW, WAITING, DONE }

  private final Map<String, String> env;
  private final PrintStream out;
  private final PrintStream err;
  private final IntConsumer halt;
  private final ClassLoader loader;
  private final System.Logger logger;

  /**
   * @param halt ends the process when Berth goes away while the task's code runs, which the worker
   *     cannot interrupt
   */
  Worker(Map<String, String> env, PrintStream out, PrintStream err, IntConsumer halt, ClassLoader loader) {
    this.env = env;
    this.out = out;
    this.err = err;
    this.halt = halt;
    this.loader = loader;
    this.logger = new StderrLogger(WorkerContext.taskId(env), err);
  }

  /** Runs the task class named by the only argument; returns the exit code. */
  int run(String[] args) {
    if (args.length != 1) {
      err.println("usage: java -cp <classpath> " + WorkerMain.class.getName() + " <task class>");
      return SETUP_ERROR;
    }
    String control = env.get("BERTH_CONTROL");
    return control == null || control.isEmpty() ? standalone(args[0]) : controlled(args[0], Path.of(control));
  }

  private int standalone(String className) {
    BerthTask task;
    try {
      task = TaskLoader.create(className, loader);
    } catch (TaskLoader.SetupException e) {
      err.println(e.getMessage());
      return SETUP_ERROR;
    }
    WorkerContext context = new WorkerContext(
        env, (key, value) -> logger.log(System.Logger.Level.INFO, "item " + key + " = " + MessageJson.write(value)), logger);
    // Under Berth without its control channel (a pool's Java task run as a process, on a cluster, say)
    // the task trains on the device Berth placed it on and leaves its result where Berth reads it.
    String placed = env.get("BERTH_DEVICE");
    Device device = placed == null || placed.isEmpty() ? Device.cpu() : new Device(placed);
    String taskDir = env.get("BERTH_TASK_DIR");
    try {
      logger.log(System.Logger.Level.INFO, "BERTH_CONTROL is not set: loading, then training on " + device.name());
      long start = System.nanoTime();
      task.load(context);
      logger.log(System.Logger.Level.INFO, "loaded in " + millisSince(start) + " ms");
      start = System.nanoTime();
      Map<String, Object> result = task.train(device, context);
      logger.log(System.Logger.Level.INFO, "trained in " + millisSince(start) + " ms");
      out.println(MessageJson.write(result == null ? Map.of() : result));
      out.flush();
      if (result != null && taskDir != null && !taskDir.isEmpty()) {
        PoolWorker.writeAtomically(Path.of(taskDir).resolve("result.json"), result);
      }
      return SUCCESS;
    } catch (Throwable t) {
      logger.log(System.Logger.Level.ERROR, "the task failed", t);
      return FAILED;
    }
  }

  private int controlled(String className, Path socketPath) {
    String taskId = env.get("BERTH_TASK_ID");
    String token = env.get("BERTH_TOKEN");
    if (taskId == null || taskId.isEmpty() || token == null || token.isEmpty()) {
      err.println("BERTH_CONTROL is set but BERTH_TASK_ID or BERTH_TOKEN is missing; is this process started by Berth?");
      return SETUP_ERROR;
    }
    LineChannel socket;
    try {
      socket = LineChannel.connect(socketPath);
    } catch (IOException e) {
      err.println("cannot connect to Berth's control socket " + socketPath + ": " + e.getMessage());
      return SETUP_ERROR;
    }
    try (socket) {
      return new Session(socket).run(className, taskId, token);
    } catch (UncheckedIOException e) {
      err.println("lost the connection to Berth: " + e.getCause().getMessage());
      return SETUP_ERROR;
    }
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  /** One connection's protocol: commands come in on a reader thread and run on this one. */
  private final class Session {
    private final LineChannel socket;
    private final BlockingQueue<String> commands = new LinkedBlockingQueue<>();
    private volatile boolean busy;
    private Phase phase = Phase.NEW;
    private int exitCode = SUCCESS;
    private long loadTimeMs;

    Session(LineChannel socket) {
      this.socket = socket;
    }

    int run(String className, String taskId, String token) {
      socketLine(ControlCodec.hello(taskId, token, ProcessHandle.current().pid()));
      Thread reader = new Thread(this::read, "berth-control-reader");
      reader.setDaemon(true);
      reader.start();
      BerthTask task;
      try {
        task = TaskLoader.create(className, loader);
      } catch (TaskLoader.SetupException e) {
        err.println(e.getMessage());
        String traceback = e.getCause() == null ? e.getMessage() : Failures.traceback(e.getCause());
        send(new TaskMessage.Failure(Stage.LOAD, e.getMessage(), traceback));
        phase = Phase.DONE;
        exitCode = SETUP_ERROR;
        return awaitExit(null);
      }
      WorkerContext context = new WorkerContext(env, this::sendItem, logger);
      return awaitExit(new Stages(task, context));
    }

    /** Follows commands until {@code exit}, or until the channel closes. */
    private int awaitExit(Stages stages) {
      while (true) {
        String line;
        try {
          line = commands.take();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return SETUP_ERROR;
        }
        if (line == END) {
          if (phase == Phase.DONE) {
            return exitCode;
          }
          err.println("the connection to Berth closed before the task was told to exit");
          return SETUP_ERROR;
        }
        ControlCommand command;
        try {
          command = ControlCodec.decodeCommand(line);
        } catch (ControlProtocolException e) {
          return protocolError(e.getMessage() + ": " + line);
        }
        if (command instanceof ControlCommand.Exit) {
          return exitCode;
        }
        if (phase == Phase.DONE) {
          // Berth may have sent it before it read our last message; only exit matters now.
          logger.log(System.Logger.Level.WARNING, "ignoring " + command.type() + ": the task only waits for exit now");
          continue;
        }
        if (command instanceof ControlCommand.Load && phase == Phase.NEW) {
          stages.load();
        } else if (command instanceof ControlCommand.Train train && phase == Phase.WAITING) {
          stages.train(new Device(train.device()));
        } else {
          return protocolError("unexpected command '" + command.type() + "' while " + (phase == Phase.NEW ? "not loaded" : "loaded"));
        }
      }
    }

    private int protocolError(String what) {
      err.println("protocol error: " + what);
      return SETUP_ERROR;
    }

    /** The user's task and what running its stages does to the session. */
    private final class Stages {
      private final BerthTask task;
      private final WorkerContext context;

      Stages(BerthTask task, WorkerContext context) {
        this.task = task;
        this.context = context;
      }

      void load() {
        status(TaskPhase.LOADING);
        long start = System.nanoTime();
        Throwable failure = null;
        busy = true;
        try {
          task.load(context);
        } catch (Throwable t) {
          failure = t;
        } finally {
          busy = false;
        }
        if (failure == null) {
          loadTimeMs = millisSince(start);
          phase = Phase.WAITING;
          status(TaskPhase.WAITING);
        } else {
          fail(failure instanceof OutOfMemoryError, Stage.LOAD, failure);
        }
      }

      void train(Device device) {
        status(TaskPhase.TRAINING);
        long start = System.nanoTime();
        Throwable failure = null;
        String result = null;
        busy = true;
        try {
          Map<String, Object> map = task.train(device, context);
          result = ControlCodec.encode(new TaskMessage.Result(map == null ? Map.of() : map));
        } catch (Throwable t) {
          failure = t;
        } finally {
          busy = false;
        }
        if (failure == null) {
          socketLine(result);
          send(new TaskMessage.Finished(loadTimeMs, millisSince(start)));
          phase = Phase.DONE;
          exitCode = SUCCESS;
        } else if (Failures.trainOom(failure) != null) {
          logger.log(System.Logger.Level.WARNING, "out of memory on " + device + "; waiting for another train", failure);
          send(new TaskMessage.Oom(Stage.TRAIN, Failures.message(Failures.trainOom(failure))));
          exitCode = FAILED; // until a later train succeeds
          status(TaskPhase.WAITING);
        } else {
          fail(false, Stage.TRAIN, failure);
        }
      }

      private void fail(boolean oom, Stage stage, Throwable failure) {
        logger.log(System.Logger.Level.ERROR, (oom ? "out of memory" : "failed") + " in " + stage, failure);
        if (oom) {
          send(new TaskMessage.Oom(stage, Failures.message(failure)));
        } else {
          send(new TaskMessage.Failure(stage, Failures.message(failure), Failures.traceback(failure)));
        }
        phase = Phase.DONE;
        exitCode = FAILED;
      }
    }

    private void read() {
      try {
        for (String line = socket.readLine(); line != null; line = socket.readLine()) {
          commands.add(line);
        }
      } catch (IOException e) {
        // closed by us or by Berth: the end of the stream follows either way
      }
      commands.add(END);
      if (busy) {
        err.println("the connection to Berth closed while the task was running; exiting");
        halt.accept(SETUP_ERROR);
      }
    }

    private void status(TaskPhase status) {
      send(new TaskMessage.Status(status));
    }

    private void sendItem(String key, Object value) {
      String text = ControlCodec.encode(new TaskMessage.Item(key, value));
      try {
        socket.writeLine(text);
      } catch (IOException e) {
        // the reader sees the closed channel and ends the process; the task need not know
        logger.log(System.Logger.Level.WARNING, "item " + key + " not sent: " + e.getMessage());
      }
    }

    private void send(TaskMessage message) {
      socketLine(ControlCodec.encode(message));
    }

    private void socketLine(String line) {
      try {
        socket.writeLine(line);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
