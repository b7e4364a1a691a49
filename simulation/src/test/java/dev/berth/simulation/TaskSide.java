package dev.berth.simulation;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskId;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.Stage;
import dev.berth.protocol.TaskMessage;
import dev.berth.protocol.TaskPhase;
import dev.berth.runtime.control.channel.ControlListener;
import dev.berth.runtime.control.channel.ControlPort;
import dev.berth.runtime.exec.Supervision;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Executor;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * One Berth process's view of its task processes: the {@link Executor} that starts them in the
 * world (each one's container emptied when it exits, as the real executor's is) and the control
 * channel two-stage ones talk on. Each process plays a {@link Behaviour}. Once the Berth is dead
 * ({@link #die()}) nothing reaches it any more: exits go unseen and messages are lost, while the
 * processes run on.
 */
final class TaskSide implements Executor, ControlPort {

  private static final Duration CONNECT = Duration.ofMillis(100);

  private final World world;
  private final World.Proc berth;
  private final String run;
  private final Random random;
  private final Set<Fault> faults;
  private final Observer observer;
  /** The engine's placement of a task's current attempt, read when a train stage starts. */
  private final BiFunction<TaskId, Integer, Placement> placements;
  private final SortedMap<TaskId, Played> playing = new TreeMap<>();
  private final SortedMap<TaskId, Integer> registered = new TreeMap<>();
  private final SortedMap<TaskId, Integer> connected = new TreeMap<>();
  private ControlListener listener;
  private boolean dead;
  private boolean closed;

  /** What the simulation wants to know of the processes started. */
  interface Observer {
    /** A process is about to start for this attempt. */
    void launching(String run, TaskId task, int attempt);
  }

  TaskSide(World world, World.Proc berth, String run, Random random, Set<Fault> faults, Observer observer,
      BiFunction<TaskId, Integer, Placement> placements) {
    this.world = world;
    this.berth = berth;
    this.run = run;
    this.random = random;
    this.faults = faults;
    this.observer = observer;
    this.placements = placements;
  }

  /** The Berth is gone: what its processes do from now on reaches nobody. */
  void die() {
    dead = true;
    for (Played p : playing.values()) {
      if (p.process.alive && p.behaviour.twoStage) {
        // Its channel broke with the Berth: the task's side exits with code 2, as the protocol says.
        world.clock.schedule(Duration.ofSeconds(1), () -> world.exit(p.process, 2));
      }
    }
  }

  /** The live task processes this Berth started. */
  java.util.List<World.Proc> live() {
    return playing.values().stream().map(p -> p.process).filter(p -> p.alive).toList();
  }

  // ---- Executor

  @Override
  public Execution launch(LaunchRequest request, ExitListener onExit) {
    TaskId task = request.task();
    observer.launching(run, task, request.attempt());
    SortedMap<String, String> env = World.berthVariables(request.env());
    World.Proc p = world.start(World.Kind.TASK, berth.pid, env, run, task, request.attempt());
    p.booking = request.reservation();
    p.claimed = p.booking;
    boolean twoStage = env.containsKey("BERTH_CONTROL");
    Behaviour b = Behaviour.draw(random, twoStage, request.env().containsKey("SIM_TIMEOUT"), faults);
    Played played = new Played(p, b, request);
    playing.put(task, played);
    p.onExit = code -> {
      // Its supervisor marks the exit, Berth alive or not; a SIGKILL of the container mostly takes the supervisor too.
      if (!p.killed || random.nextInt(4) == 0) {
        mark(request, code);
      }
      if (dead) {
        return; // nobody waits for it any more
      }
      for (World.Proc left : world.containerOf(p)) {
        world.kill(left); // its container is emptied, as the real executor does
      }
      // Its connection closes with it, before or after its exit is seen.
      Integer attempt = connected.get(task);
      boolean hadConnection = attempt != null && attempt == request.attempt();
      boolean hangUpFirst = random.nextBoolean();
      if (hadConnection && hangUpFirst) {
        hangUp(task, attempt);
      }
      onExit.exited(code);
      if (hadConnection && !hangUpFirst) {
        world.clock.schedule(Duration.ZERO, () -> hangUp(task, attempt));
      }
    };
    played.begin();
    return new Execution() {
      @Override
      public long pid() {
        return p.pid;
      }

      @Override
      public boolean isAlive() {
        return p.alive;
      }

      @Override
      public void terminate(long graceMillis) {
        java.util.List<World.Proc> tree = world.containerOf(p);
        tree.forEach(member -> world.signal(member, 15));
        world.clock.schedule(Duration.ofMillis(graceMillis), () -> tree.stream().filter(m -> m.alive)
            .forEach(world::kill));
      }
    };
  }

  /** Appends the attempt's exit mark to the run's marks, as its supervisor does when its command ends. */
  private static void mark(LaunchRequest request, int code) {
    Path marks = Path.of(request.env().get("BERTH_RUN_DIR")).resolve(Supervision.MARKS_FILE);
    try {
      Files.writeString(marks, Supervision.markLine(request.attempt(), Integer.toString(code), request.workdir()),
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- ControlPort

  ControlPort open(ControlListener l) {
    this.listener = l;
    return this;
  }

  @Override
  public Path socketPath() {
    return Path.of("/nonexistent/berth-simulation.sock");
  }

  @Override
  public String register(TaskId task, int attempt) {
    registered.put(task, attempt);
    connected.remove(task);
    return "token-" + task + "-" + attempt;
  }

  @Override
  public void send(TaskId task, ControlCommand command) {
    Played p = playing.get(task);
    if (dead || closed || p == null || !p.process.alive || !connected.containsKey(task)) {
      return;
    }
    p.later(Duration.ZERO, () -> p.command(command));
  }

  @Override
  public void forget(TaskId task) {
    registered.remove(task);
    connected.remove(task);
  }

  @Override
  public boolean isConnected(TaskId task) {
    return connected.containsKey(task);
  }

  /** The run ended: its executor and its channel close. */
  @Override
  public void close() {
    closed = true;
  }

  private void hangUp(TaskId task, int attempt) {
    if (connected.remove(task, attempt) && !dead && !closed) {
      listener.disconnected(task, attempt);
    }
  }

  private void say(Played p, TaskMessage m) {
    Integer attempt = connected.get(p.request.task());
    if (!dead && !closed && p.process.alive && attempt != null && attempt == p.request.attempt()) {
      listener.message(p.request.task(), attempt, m);
    }
  }

  /** One attempt's process playing its behaviour. */
  private final class Played {
    final World.Proc process;
    final Behaviour behaviour;
    final LaunchRequest request;
    int trainCalls;
    /** Steps of its behaviour still to come. */
    int pending;

    Played(World.Proc process, Behaviour behaviour, LaunchRequest request) {
      this.process = process;
      this.behaviour = behaviour;
      this.request = request;
      // A loaded two-stage process waiting for its train command waits on Berth and does no work of its own.
      process.working = () -> pending > 0 || behaviour == Behaviour.HANG;
    }

    void begin() {
      Duration work = Duration.ofMillis(200 + random.nextInt(20_000));
      switch (behaviour) {
        case SUCCEED -> later(work, () -> exit(0));
        case SUCCEED_WITH_RESULT -> later(work, () -> {
          writeResult();
          exit(0);
        });
        case FAIL -> later(work, () -> exit(1));
        case KILLED -> later(work, () -> exit(137));
        case HANG -> process.ignoresTerm = random.nextInt(4) == 0; // some ignore SIGTERM and wait for SIGKILL
        case LEAVE_CHILDREN -> {
          int n = 1 + random.nextInt(3);
          for (int i = 0; i < n; i++) {
            world.start(World.Kind.CHILD, process.pid, process.env, run, request.task(), request.attempt());
          }
          later(work, () -> {
            writeResult();
            exit(0);
          });
        }
        default -> later(CONNECT, this::connect);
      }
    }

    void connect() {
      TaskId task = request.task();
      Integer attempt = registered.get(task);
      if (dead || closed || attempt == null || attempt != request.attempt() || connected.containsKey(task)) {
        later(Duration.ofSeconds(1), () -> exit(1)); // no Berth to talk to
        return;
      }
      connected.put(task, attempt);
      say(this, new TaskMessage.Hello(process.pid));
    }

    void command(ControlCommand c) {
      if (!process.alive) {
        return;
      }
      if (c instanceof ControlCommand.Load) {
        say(this, new TaskMessage.Status(TaskPhase.LOADING));
        later(Duration.ofMillis(100 + random.nextInt(5_000)), () -> {
          switch (behaviour) {
            case LOAD_HOST_OOM -> {
              say(this, new TaskMessage.Oom(Stage.LOAD, "MemoryError"));
              exit(1);
            }
            case LOAD_FAIL -> {
              say(this, new TaskMessage.Failure(Stage.LOAD, "ValueError: bad data", ""));
              exit(1);
            }
            default -> say(this, new TaskMessage.Status(TaskPhase.WAITING));
          }
        });
      } else if (c instanceof ControlCommand.Train) {
        trainCalls++;
        Placement placed = placements.apply(request.task(), request.attempt());
        if (placed != null) {
          process.booking = placed;
          process.claimed = placed;
        }
        say(this, new TaskMessage.Status(TaskPhase.TRAINING));
        later(Duration.ofMillis(100 + random.nextInt(10_000)), this::trained);
      } else if (c instanceof ControlCommand.Exit) {
        exit(0);
      }
    }

    void trained() {
      switch (behaviour) {
        case TRAIN_GPU_OOM_ONCE -> {
          if (trainCalls == 1) {
            process.booking = new Placement(process.booking.device(), process.booking.memoryBytes(),
                process.booking.milliCpus(), 0); // its GPU memory is freed when the error is caught
            say(this, new TaskMessage.Oom(Stage.TRAIN, "CUDA out of memory"));
            say(this, new TaskMessage.Status(TaskPhase.WAITING));
            return;
          }
          finish();
        }
        case EXIT_ZERO_MID_TRAIN -> exit(0);
        case TRAIN_KILLED -> exit(137);
        default -> finish();
      }
    }

    void finish() {
      say(this, new TaskMessage.Result(Map.of("accuracy", 0.9)));
      say(this, new TaskMessage.Finished(10, 20));
      later(Duration.ofMillis(50), () -> exit(0));
    }

    void exit(int code) {
      world.exit(process, code);
    }

    void later(Duration after, Runnable action) {
      pending++;
      world.clock.schedule(after, () -> {
        pending--;
        if (process.alive) {
          action.run();
        }
      });
    }

    void writeResult() {
      Path file = request.workdir().resolve("result.json");
      try {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"accuracy\": 0.9}\n");
        Files.setLastModifiedTime(file, FileTime.from(world.clock.instant()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
