package dev.berth.simulation;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskId;
import dev.berth.host.ProcessLiveness;
import dev.berth.host.TaskProcesses;
import dev.berth.runtime.engine.ProcessTable;
import dev.berth.testkit.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

/**
 * The simulated machine: a process table of Berth processes, task processes and their children, on
 * a fake clock. Processes live until they exit or a signal ends them; a signal takes effect at the
 * clock's next step, never inside the call that sent it, as a real kill(2) lands later. Whatever
 * is alive here is what Berth may find again after a crash ({@link #table()}) and what the host
 * ledger counts as alive ({@link #liveness()}).
 */
final class World {

  /** What a process is to the machine. */
  enum Kind { BERTH, TASK, CHILD }

  /** The argument vector of the supervisor a real attempt runs under, as a resume reads it. */
  private static final List<String> SUPERVISOR = List.of("/bin/sh", "-c", "trap : HUP INT TERM\n", "berth-task", "task");

  final FakeClock clock;
  private final SortedMap<Long, Proc> processes = new TreeMap<>();
  private long nextPid = 4000;

  World(FakeClock clock) {
    this.clock = clock;
  }

  /** A process of the simulated machine, as a {@link ProcessHandle} so that Berth's resume can hold it. */
  final class Proc implements ProcessHandle {
    final long pid;
    final Kind kind;
    final long startTicks;
    final Instant startedAt;
    final SortedMap<String, String> env;
    final String run;
    final TaskId task;
    final int attempt;
    final CompletableFuture<ProcessHandle> exit = new CompletableFuture<>();
    volatile boolean alive = true;
    long parent;
    /** The task container it belongs to (the task process's pid), which its children stay in when re-parented. */
    long container;
    /** The task process of that container, also once it is reaped. */
    Proc containerTask;
    /** What the process holds now of the machine: its reservation, or its train stage's. */
    Placement booking;
    /**
     * What Berth last reserved for it: its booking, kept when the process frees its GPU memory
     * itself (after a train-stage OOM), which its Berth's ledger learns only when Berth acts on it.
     */
    Placement claimed;
    /** Called with the exit code when the process ends, by whoever waits for it. */
    IntConsumer onExit = code -> {};
    /** Called when a signal ends it, before it dies: a process that handles SIGTERM may clean up. */
    boolean ignoresTerm;
    /**
     * Whether it does work of its own now: a step of its behaviour is to come, or it hangs until its
     * timeout. Set by whoever plays it, and kept when a later Berth of its run adopts it.
     */
    BooleanSupplier working = () -> false;
    /** Whether SIGKILL ended it: a task process's supervisor then died with its command, before it could mark the exit. */
    boolean killed;

    Proc(Kind kind, long parent, SortedMap<String, String> env, String run, TaskId task, int attempt) {
      this.pid = nextPid++;
      this.kind = kind;
      this.parent = parent;
      this.startTicks = pid * 7;
      this.startedAt = clock.instant();
      this.env = env;
      this.run = run;
      this.task = task;
      this.attempt = attempt;
    }

    @Override
    public long pid() {
      return pid;
    }

    @Override
    public Optional<ProcessHandle> parent() {
      synchronized (World.this) {
        Proc p = processes.get(parent);
        return p != null && p.alive ? Optional.of(p) : Optional.empty();
      }
    }

    @Override
    public Stream<ProcessHandle> children() {
      synchronized (World.this) {
        return processes.values().stream().filter(p -> p.alive && p.parent == pid).map(p -> (ProcessHandle) p)
            .toList().stream();
      }
    }

    @Override
    public Stream<ProcessHandle> descendants() {
      synchronized (World.this) {
        List<ProcessHandle> all = new ArrayList<>();
        collect(this, all);
        return all.stream();
      }
    }

    private void collect(Proc root, List<ProcessHandle> into) {
      for (Proc p : processes.values()) {
        if (p.alive && p.parent == root.pid) {
          into.add(p);
          collect(p, into);
        }
      }
    }

    @Override
    public Info info() {
      return new Info() {
        @Override
        public Optional<String> command() {
          return Optional.empty();
        }

        @Override
        public Optional<String> commandLine() {
          return Optional.empty();
        }

        @Override
        public Optional<String[]> arguments() {
          return Optional.empty();
        }

        @Override
        public Optional<Instant> startInstant() {
          return Optional.of(startedAt);
        }

        @Override
        public Optional<Duration> totalCpuDuration() {
          return Optional.empty();
        }

        @Override
        public Optional<String> user() {
          return Optional.empty();
        }
      };
    }

    @Override
    public CompletableFuture<ProcessHandle> onExit() {
      return exit;
    }

    @Override
    public boolean supportsNormalTermination() {
      return true;
    }

    @Override
    public boolean destroy() {
      signal(this, 15);
      return true;
    }

    @Override
    public boolean destroyForcibly() {
      signal(this, 9);
      return true;
    }

    @Override
    public boolean isAlive() {
      return alive;
    }

    @Override
    public int compareTo(ProcessHandle other) {
      return Long.compare(pid, other.pid());
    }

    @Override
    public String toString() {
      return kind + " " + pid + (task != null ? " " + run + "/" + task + "#" + attempt : " " + run);
    }
  }

  /** Starts a process now. */
  synchronized Proc start(Kind kind, long parent, SortedMap<String, String> env, String run, TaskId task,
      int attempt) {
    Proc p = new Proc(kind, parent, env, run, task, attempt);
    Proc up = processes.get(parent);
    p.container = kind == Kind.CHILD && up != null ? up.container : p.pid;
    p.containerTask = kind == Kind.CHILD && up != null ? up.containerTask : p;
    processes.put(p.pid, p);
    return p;
  }

  /** Sends signal {@code number} to the process; it lands at the clock's next step. */
  void signal(Proc p, int number) {
    clock.schedule(Duration.ZERO, () -> {
      if (number == 15 && p.ignoresTerm) {
        return;
      }
      if (number == 9) {
        kill(p);
      } else {
        exit(p, 128 + number);
      }
    });
  }

  /** The process is killed with SIGKILL now. */
  void kill(Proc p) {
    synchronized (this) {
      if (p.alive) {
        p.killed = true;
      }
    }
    exit(p, 137);
  }

  /** The process ends now with this code; its children are left, re-parented to init. */
  void exit(Proc p, int code) {
    synchronized (this) {
      if (!p.alive) {
        return;
      }
      p.alive = false;
      for (Proc c : processes.values()) {
        if (c.alive && c.parent == p.pid) {
          c.parent = 1;
        }
      }
    }
    p.exit.complete(p);
    p.onExit.accept(code);
  }

  /** Every live process, in pid order. */
  synchronized List<Proc> alive() {
    return processes.values().stream().filter(p -> p.alive).toList();
  }

  /** The live processes of a task of a run, children included. */
  synchronized List<Proc> aliveOf(String run, TaskId task) {
    return processes.values().stream().filter(p -> p.alive && run.equals(p.run) && task.equals(p.task)).toList();
  }

  /** The live processes in a task's container, its own included, as a cgroup holds them whatever their parent. */
  /**
   * What the task process of each container in which a process still lives booked: also when only
   * children it left live on, for they may hold what it used, as the host ledger assumes of a dead
   * run. For a run whose Berth is dead, what Berth last reserved for the task, which its ledger
   * keeps, as nothing of the run is left to release it.
   */
  synchronized List<Placement> containerBookings() {
    SortedMap<Long, Proc> live = new TreeMap<>();
    processes.values().stream().filter(p -> p.alive && p.kind != Kind.BERTH)
        .forEach(p -> live.put(p.container, p.containerTask));
    List<Placement> booked = new ArrayList<>();
    for (Proc task : live.values()) {
      if (task == null || task.kind != Kind.TASK) {
        continue;
      }
      boolean berthAlive = processes.values().stream()
          .anyMatch(p -> p.alive && p.kind == Kind.BERTH && p.run.equals(task.run));
      Placement booking = berthAlive || task.claimed == null ? task.booking : task.claimed;
      if (booking != null) {
        booked.add(booking);
      }
    }
    return booked;
  }

  synchronized List<Proc> containerOf(Proc task) {
    return processes.values().stream().filter(p -> p.alive && p.container == task.container).toList();
  }

  /** Whether a live task process of the run does work of its own, whichever of its Berths started it. */
  synchronized boolean working(String run) {
    return processes.values().stream().anyMatch(p -> p.alive && p.kind == Kind.TASK && run.equals(p.run)
        && p.working.getAsBoolean());
  }

  /** Forgets dead processes, so the table stays small over a long seed. */
  synchronized void reap() {
    processes.values().removeIf(p -> !p.alive);
  }

  /** The machine's processes as a resuming Berth looks through them. */
  ProcessTable table() {
    return new ProcessTable() {
      @Override
      public Stream<ProcessHandle> all() {
        return alive().stream().map(p -> (ProcessHandle) p);
      }

      @Override
      public Optional<ProcessHandle> of(long pid) {
        synchronized (World.this) {
          Proc p = processes.get(pid);
          return p != null && p.alive ? Optional.of(p) : Optional.empty();
        }
      }

      @Override
      public Optional<List<String>> commandLine(long pid) {
        synchronized (World.this) {
          Proc p = processes.get(pid);
          if (p == null || !p.alive) {
            return Optional.empty();
          }
          // A task process stands for the supervisor Berth starts each attempt under; its children are the command's.
          return Optional.of(p.kind == Kind.TASK ? SUPERVISOR : List.of("sleep", "300"));
        }
      }

      @Override
      public Optional<Map<String, String>> berthVariables(long pid) {
        synchronized (World.this) {
          Proc p = processes.get(pid);
          return p != null && p.alive ? Optional.of(p.env) : Optional.empty();
        }
      }

      @Override
      public void endLeftovers(List<String> all, List<String> none, Collection<Path> groups) {
        // Every process carries its task's variables here (no child clears them), so they find all the leftovers.
        List<Proc> found;
        synchronized (World.this) {
          found = processes.values().stream().filter(p -> p.alive && p.kind != Kind.BERTH
              && all.stream().allMatch(e -> holds(p, e)) && none.stream().noneMatch(e -> holds(p, e))).toList();
        }
        found.forEach(World.this::kill); // at once: the real one returns only once they are gone
      }
    };
  }

  private static boolean holds(Proc p, String entry) {
    int eq = entry.indexOf('=');
    return entry.substring(eq + 1).equals(p.env.get(entry.substring(0, eq)));
  }

  /** Whether a process the host ledger knows by pid and start is alive here. */
  ProcessLiveness liveness() {
    return (pid, start) -> {
      synchronized (World.this) {
        Proc p = processes.get(pid);
        return p != null && p.alive && p.startTicks == start;
      }
    };
  }

  /** Which tasks of a dead run still have a process, as the host ledger asks before it reclaims the run's holds. */
  TaskProcesses taskProcesses() {
    return new TaskProcesses() {
      @Override
      public Set<String> liveTasks(String runDir, long uid, long berthStart) {
        synchronized (World.this) {
          SortedSet<String> live = new TreeSet<>();
          // Every looker of this world reads every process's variables: the start does not matter.
          processes.values().stream().filter(p -> p.alive && p.kind != Kind.BERTH
              && runDir.equals(p.env.get("BERTH_RUN_DIR")))
              .forEach(p -> live.add(p.env.getOrDefault("BERTH_TASK_ID", TaskProcesses.UNKNOWN)));
          return live;
        }
      }
    };
  }

  /** Variables of a task process: what Berth gave it, which its children inherit. */
  static SortedMap<String, String> berthVariables(Map<String, String> env) {
    SortedMap<String, String> kept = new TreeMap<>();
    env.forEach((k, v) -> {
      if (k.startsWith("BERTH_")) {
        kept.put(k, v);
      }
    });
    return kept;
  }
}
