package dev.berth.simulation;

import dev.berth.core.gpu.SimulatedDevices;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.Occupancy;
import dev.berth.core.resources.Refusal;
import dev.berth.core.resources.Resource;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.core.scheduling.Waiting;
import dev.berth.host.HostLedgers;
import dev.berth.journal.Durability;
import dev.berth.journal.SpecCodec;
import dev.berth.journal.SqliteJournal;
import dev.berth.runtime.engine.Engine;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.engine.RunListener;
import dev.berth.runtime.gpu.SimulatedGpuProbe;
import dev.berth.spi.Journal;
import dev.berth.spi.SharedReservations;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeHostProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One seed of the whole-system simulation: two or three runs of different users share two
 * {@code sim:} GPUs and the host through the real scheduler, engine, SQLite journals and SQLite
 * host ledger, on a fake clock, with task processes in a simulated {@link World}. Faults of the
 * enabled kinds strike at random steps; after every step the invariants are checked, and the
 * first broken one ends the seed with a description. Everything follows from the seed.
 */
final class Simulation {

  static final long GIB = 1L << 30;
  static final String GPUS = "sim:2x24GiB";
  static final long GPU_BYTES = 24 * GIB;
  static final int CORES = 8;
  static final long HOST_BYTES = 64 * GIB;
  /** How long a wrong picture may last before it counts: the ledger is read once per interval. */
  static final Duration SETTLE = Duration.ofSeconds(30);
  /** Fake time the runs get, once faults stop, to end. */
  static final Duration END_WITHIN = Duration.ofHours(1);

  private final long seed;
  private final Set<Fault> faults;
  private final Path dir;
  private final Random random;
  private final FakeClock clock = new FakeClock();
  private final World world = new World(clock);
  private final BusyLedger.Lock ledgerLock = new BusyLedger.Lock();
  private final CrashableJournal.Disk disk = new CrashableJournal.Disk();
  private final List<SimRun> runs = new ArrayList<>();
  private final List<String> log = new ArrayList<>();
  /** {@code -Dsim.trace=true}: a seed's steps also list every task event and every change of the reasons a run gives. */
  private static final boolean TRACE = Boolean.getBoolean("sim.trace");
  private final Map<String, Instant> suspectSince = new TreeMap<>();
  /** The suspicions the current check looked at: one it did not look at has not held all along. */
  private final Set<String> suspectLookedAt = new TreeSet<>();
  private int step;
  private String violation;

  /** What a seed found: the broken invariant, if any, and the last steps before it. */
  record Result(long seed, Optional<String> violation, List<String> lastSteps, int steps) {}

  Simulation(long seed, Set<Fault> faults, Path dir) {
    this.seed = seed;
    this.faults = faults;
    this.dir = dir;
    this.random = new Random(seed);
  }

  /** Runs the seed to its end or its first broken invariant. */
  Result run() {
    try {
      int count = faults.contains(Fault.SECOND_RUN) ? 2 + random.nextInt(2) : 1 + random.nextInt(2);
      for (int i = 0; i < count; i++) {
        runs.add(new SimRun("r" + i, "user" + (i % 2), 1000 + i % 2, spec("r" + i)));
      }
      runs.get(0).start();
      if (!faults.contains(Fault.SECOND_RUN)) {
        runs.forEach(r -> { if (!r.started) r.start(); });
      }
      int steps = 100 + random.nextInt(150);
      for (step = 0; step < steps && violation == null; step++) {
        act();
        settle();
        check();
      }
      endPhase();
    } catch (Violation v) {
      violation = v.getMessage();
      note("at the violation: " + waitingSummary() + " live processes: " + world.alive() + "; ledger: "
          + ledgerSummary());
    } catch (RuntimeException | Error e) {
      violation = "the simulation itself broke: " + e;
      java.io.StringWriter w = new java.io.StringWriter();
      e.printStackTrace(new java.io.PrintWriter(w));
      log.add(w.toString());
    } finally {
      runs.forEach(SimRun::abandon);
    }
    List<String> tail = log.subList(Math.max(0, log.size() - 40), log.size());
    return new Result(seed, Optional.ofNullable(violation), List.copyOf(tail), step);
  }

  // ---- the spec

  private RunSpec spec(String name) {
    SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, 0L)
        .set(SchedulerKeys.REMAIN_CUDA_MEMORY, 0L)
        .set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.INTERVAL, Duration.ofSeconds(1)).build();
    List<TaskSpec> tasks = new ArrayList<>();
    int n = 2 + random.nextInt(6);
    for (int i = 0; i < n; i++) {
      String id = "t" + i;
      boolean twoStage = random.nextInt(3) == 0;
      TaskSpec.Builder b = TaskSpec.builder(id, "g").command("work", id).priority(random.nextInt(3))
          .memoryBytes((1 + random.nextInt(12)) * GIB).cpus(1 + random.nextInt(3))
          .set(TaskKeys.RETRIES, random.nextInt(3));
      if (twoStage || random.nextInt(3) > 0) {
        b.gpuMemoryBytes((4 + random.nextInt(13)) * GIB);
      }
      b.twoStage(twoStage);
      if (!twoStage && random.nextInt(4) == 0) {
        b.timeout(Duration.ofSeconds(30 + random.nextInt(60))).env(Map.of("SIM_TIMEOUT", "1"));
      }
      if (i > 0 && random.nextInt(5) == 0) {
        b.after(Dependency.allSucceeded(List.of(TaskId.of("t" + random.nextInt(i)))));
      }
      tasks.add(b.build());
    }
    return new RunSpec(name, dir.resolve(name).toString(), config, List.of(new GroupSpec("g", tasks)), false, GPUS,
        Reporting.NONE);
  }

  // ---- steps

  private void act() {
    int roll = random.nextInt(100);
    List<SimRun> live = runs.stream().filter(r -> r.berth != null && !r.berth.stopping).toList();
    List<SimRun> resumable = runs.stream().filter(r -> r.started && r.berth == null && !r.finished).toList();
    if (roll < 3 && faults.contains(Fault.KILL9) && !live.isEmpty()) {
      pick(live).kill9();
    } else if (roll < 5 && faults.contains(Fault.SIGTERM) && !live.isEmpty()) {
      pick(live).sigterm();
    } else if (roll < 9 && faults.contains(Fault.RESUME) && !resumable.isEmpty()) {
      pick(resumable).resume();
    } else if (roll < 11 && faults.contains(Fault.SECOND_RUN) && runs.stream().anyMatch(r -> !r.started)) {
      runs.stream().filter(r -> !r.started).findFirst().orElseThrow().start();
    } else if (roll < 12 && faults.contains(Fault.LEDGER_DELETED)) {
      note("the host ledger's files are deleted");
      for (long uid : runs.stream().map(r -> r.uid).distinct().toList()) {
        quietly(() -> Files.deleteIfExists(HostLedgers.file(dir.resolve("host"), uid)));
      }
    } else if (roll < 13 && faults.contains(Fault.LEDGER_BUSY) && !ledgerLock.busy) {
      Duration held = Duration.ofMillis(500 + random.nextInt(8000));
      note("the host ledger is locked by another process for " + held.toMillis() + " ms");
      ledgerLock.busy = true;
      clock.schedule(held, () -> ledgerLock.busy = false);
    } else if (roll < 14 && faults.contains(Fault.JOURNAL_WRITE_FAILS) && !live.isEmpty()) {
      SimRun r = pick(live);
      note(r.name + "'s next journal write fails");
      r.berth.journal.failNextFlush("disk I/O error");
    } else if (roll < 15 && faults.contains(Fault.DISK_FULL)) {
      disk.full = !disk.full;
      note(disk.full ? "the disk is full" : "the disk has room again");
    } else {
      Duration by = Duration.ofMillis(random.nextInt(3000));
      clock.advance(by);
    }
  }

  /** Runs what is due and lets every live Berth handle what reached it. */
  private void settle() {
    clock.runDueTimers();
    List<SimRun> order = new ArrayList<>(runs);
    Collections.shuffle(order, random);
    for (SimRun r : order) {
      r.drain();
    }
    world.reap();
  }

  private void endPhase() {
    ledgerLock.busy = false;
    disk.full = false;
    note("faults stop; every run is let finish");
    Instant deadline = clock.instant().plus(END_WITHIN);
    while (violation == null) {
      for (SimRun r : runs) {
        if (!r.started) {
          r.start();
        } else if (r.berth == null && !r.finished) {
          r.resume();
        }
      }
      settle();
      check();
      if (runs.stream().allMatch(r -> r.finished)) {
        break;
      }
      if (clock.instant().isAfter(deadline)) {
        throw new Violation("2 (no deadlock): runs did not end within " + END_WITHIN + " of fake time after the "
            + "last fault: " + waitingSummary());
      }
      clock.advance(Duration.ofSeconds(2));
    }
    List<World.Proc> left = world.alive().stream().filter(p -> p.kind != World.Kind.BERTH).toList();
    if (!left.isEmpty()) {
      throw new Violation("4 (no process outlives its task): every run ended, and these still run: " + left);
    }
  }

  /** The host ledger's live runs and holds, as {@code berth ps} would show them. */
  private String ledgerSummary() {
    try (SharedReservations view = HostLedgers.open(dir.resolve("host"), world.liveness(), world.taskProcesses())) {
      StringBuilder s = new StringBuilder();
      for (SharedReservations.RunEntry r : view.runs(false, clock.instant())) {
        s.append(r.run()).append(" (").append(r.progress().state()).append("):");
        r.reservations().forEach(h -> s.append(' ').append(h.task()).append(' ').append(h.label()).append(' ')
            .append(h.bytes() / GIB).append('G'));
        s.append("; ");
      }
      return s.toString();
    } catch (RuntimeException e) {
      return "cannot be read: " + e.getMessage();
    }
  }

  private String waitingSummary() {
    StringBuilder s = new StringBuilder();
    for (SimRun r : runs) {
      if (r.berth == null) {
        continue;
      }
      for (TaskRecord t : r.berth.engine.state().tasks()) {
        if (!t.state().isTerminal()) {
          s.append(r.name).append(r.berth.stopping ? " (stopping)" : "").append('/').append(t.spec().id())
              .append(t.spec().twoStage() ? " two-stage " : " ").append(t.state());
          r.berth.waiting.stream().filter(w -> w.task().equals(t.spec().id())).findFirst()
              .ifPresent(w -> s.append(" (").append(w.describe()).append(')'));
          s.append("; ");
        }
      }
    }
    return s.toString();
  }

  // ---- invariants

  private void check() {
    suspectLookedAt.clear();
    capacity();
    progress();
    for (SimRun r : runs) {
      if (r.berth != null && r.berth.started) {
        succeededStays(r);
        processesEndWithTasks(r);
        waitsAreTrue(r);
      }
    }
    // E.g. a task that waited, then ran, then waits again: its wait is new.
    suspectSince.keySet().retainAll(suspectLookedAt);
  }

  /**
   * 2: when no task process does work of its own (each live one waits on Berth, as a loaded
   * two-stage task waiting for a device does), no Berth is down or stopping, and runs have not
   * ended, something must start or end within a few probe intervals.
   */
  private void progress() {
    boolean quiet = runs.stream().allMatch(r -> r.finished || !r.started
        || r.berth != null && r.berth.started && !r.berth.stopping && !world.working(r.name))
        && runs.stream().anyMatch(r -> r.berth != null && r.berth.started);
    long moves = runs.stream().filter(r -> r.berth != null && r.berth.started).mapToLong(r -> r.berth.moves).sum();
    if (moves != lastMoves) {
      lastMoves = moves;
      suspectSince.remove("quiet");
    }
    suspect("2 (no deadlock): no task process does work of its own, none is due, and nothing starts or ends: "
        + waitingSummary(), "quiet", quiet);
  }

  private long lastMoves = -1;

  /** 1: nothing is booked past what the host has, counting what live task processes hold. */
  private void capacity() {
    long memory = 0;
    long milliCpus = 0;
    SortedMap<String, Long> gpu = new TreeMap<>();
    List<World.Proc> holders = new ArrayList<>();
    for (World.Proc p : world.alive()) {
      if (p.kind != World.Kind.TASK || p.booking == null) {
        continue;
      }
      holders.add(p);
      memory += p.booking.memoryBytes();
      milliCpus += p.booking.milliCpus();
      if (p.booking.gpuMemoryBytes() > 0) {
        for (Integer index : p.booking.gpuIndices()) {
          gpu.merge("cuda:" + index, p.booking.gpuMemoryBytes(), Long::sum);
        }
      }
    }
    gpu.forEach((device, bytes) -> {
      if (bytes > GPU_BYTES) {
        throw new Violation("1 (no overbooking): " + device + " has " + bytes / GIB + " GiB booked of "
            + GPU_BYTES / GIB + " GiB by live task processes " + describe(holders));
      }
    });
    if (memory > HOST_BYTES) {
      throw new Violation("1 (no overbooking): host memory " + memory / GIB + " GiB booked of " + HOST_BYTES / GIB
          + " GiB by live task processes " + describe(holders));
    }
    if (milliCpus > CORES * 1000L) {
      throw new Violation("1 (no overbooking): " + milliCpus / 1000.0 + " cores booked of " + CORES
          + " by live task processes " + describe(holders));
    }
  }

  private static String describe(List<World.Proc> holders) {
    return holders.stream().map(p -> p + " " + p.booking.device() + " " + p.booking.gpuMemoryBytes() / GIB + "G")
        .toList().toString();
  }

  /** 3: a task that succeeded never runs again, and none is lost. */
  private void succeededStays(SimRun r) {
    RunState state = r.berth.engine.state();
    for (TaskId id : r.succeeded) {
      TaskState s = state.task(id).state();
      if (s != TaskState.SUCCEEDED) {
        throw new Violation("3 (a success stands): " + r.name + "/" + id + " had succeeded and is now " + s);
      }
    }
    for (TaskRecord t : state.tasks()) {
      if (t.state() == TaskState.SUCCEEDED) {
        r.succeeded.add(t.spec().id());
      }
      if (t.state() == TaskState.FAILED) {
        int last = t.history().attemptCount();
        if (r.killedByBerth.contains(t.spec().id() + "#" + last)) {
          throw new Violation("3 (no task lost): " + r.name + "/" + t.spec().id() + " FAILED, but its attempt " + last
              + " was killed by Berth's own stop, not by what it did: " + t.history().finalReason().orElse(""));
        }
      }
    }
  }

  /** 4: no process outlives its task's end (for long: a signal takes a step to land). */
  private void processesEndWithTasks(SimRun r) {
    RunState state = r.berth.engine.state();
    for (TaskRecord t : state.tasks()) {
      Optional<Integer> current = Optional.ofNullable(state.running().get(t.spec().id())).map(l -> l.attempt());
      for (World.Proc p : world.aliveOf(r.name, t.spec().id())) {
        boolean fine = current.isPresent() && current.get() == p.attempt && (p.kind == World.Kind.TASK
            || world.aliveOf(r.name, t.spec().id()).stream().anyMatch(q -> q.kind == World.Kind.TASK
            && q.attempt == p.attempt));
        suspect("4 (no process outlives its task): " + p + " runs while " + r.name + "/" + t.spec().id() + " is "
            + t.state() + current.map(a -> " in attempt " + a).orElse(""), "outlives " + p.pid, !fine);
      }
    }
  }

  /** 5: every waiting task says why, and what it says is true of the machine. */
  private void waitsAreTrue(SimRun r) {
    RunState state = r.berth.engine.state();
    Map<TaskId, Waiting> said = new TreeMap<>();
    r.berth.waiting.forEach(w -> said.put(w.task(), w));
    for (TaskRecord t : state.ready()) {
      TaskId id = t.spec().id();
      Waiting w = said.get(id);
      // A task the pass held back behind a refusal that stopped it for every remaining one (blockedBy) has that reason.
      boolean heldBack = w == null && r.berth.lastDecided != null && r.berth.lastDecided.blockedBy().isPresent();
      boolean silent = w == null ? !heldBack
          : w.refusals().isEmpty() && w.edge().isEmpty() && w.activeGroup().isEmpty();
      suspect("5 (a waiting task says why): " + r.name + "/" + id + " is " + t.state()
          + " and no reason is given", "silent " + r.berth.process.pid + id, silent && state.running().isEmpty()
          && r.berth.lastDecided != null);
      if (w == null) {
        continue;
      }
      for (Refusal refusal : w.refusals()) {
        if (refusal.resource() == Resource.GPU_MEMORY && refusal.device().startsWith("cuda:")
            && refusal.asked() > 0 && refusal.free() >= 0) {
          long free = GPU_BYTES - bookedOn(refusal.device());
          suspect("5 (a reason is true): " + r.name + "/" + id + " waits for '" + refusal.describe() + "' while "
              + refusal.device() + " has " + free / GIB + " GiB free of what live processes hold",
              "untrue " + r.berth.process.pid + id, free >= refusal.asked());
        }
      }
    }
  }

  /**
   * What live processes may hold of the device: a task's booking while any process of its container
   * lives. A child a task of a killed run left behind keeps what the task booked held in the ledger
   * until the run's resume ends it (it may hold the task's memory); a refusal that names it is true.
   */
  private long bookedOn(String device) {
    long sum = 0;
    for (Placement booking : world.containerBookings()) {
      if (booking.gpuMemoryBytes() > 0 && booking.gpuIndices().stream().anyMatch(i -> ("cuda:" + i).equals(device))) {
        sum += booking.gpuMemoryBytes();
      }
    }
    return sum;
  }

  /** A condition that is a violation once it has held for {@link #SETTLE}. */
  private void suspect(String description, String key, boolean holds) {
    suspectLookedAt.add(key);
    if (!holds) {
      suspectSince.remove(key);
      return;
    }
    Instant since = suspectSince.computeIfAbsent(key, k -> clock.instant());
    if (Duration.between(since, clock.instant()).compareTo(SETTLE) >= 0) {
      throw new Violation(description + " (for " + Duration.between(since, clock.instant()).toSeconds() + " s)");
    }
  }

  private void note(String what) {
    log.add(String.format("step %d, t=%ds: %s", step, Duration.between(START, clock.instant()).toSeconds(), what));
  }

  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private <T> T pick(List<T> from) {
    return from.get(random.nextInt(from.size()));
  }

  private interface IoAction {
    void run() throws Exception;
  }

  private static void quietly(IoAction a) {
    try {
      a.run();
    } catch (Exception e) {
      // gone already, or the Berth holding it is gone
    }
  }

  /** A broken invariant. */
  static final class Violation extends RuntimeException {
    Violation(String message) {
      super(message);
    }
  }

  // ---- runs and their Berths

  /** One run: its spec and folder, and the Berth now running it, if any. */
  private final class SimRun {
    final String name;
    final String user;
    final long uid;
    final RunSpec spec;
    final Path runDir;
    final SortedSet<TaskId> succeeded = new TreeSet<>();
    final Set<String> killedByBerth = new TreeSet<>();
    Berth berth;
    boolean started;
    boolean finished;
    int incarnations;

    SimRun(String name, String user, long uid, RunSpec spec) {
      this.name = name;
      this.user = user;
      this.uid = uid;
      this.spec = spec;
      this.runDir = Path.of(spec.workdir());
    }

    Path journalFile() {
      return runDir.resolve(".berth").resolve("journal.db");
    }

    void start() {
      started = true;
      note(name + " starts (" + user + ", " + spec.tasks().size() + " tasks)");
      try {
        Files.createDirectories(journalFile().getParent());
        SqliteJournal j = SqliteJournal.create(journalFile(), Durability.NORMAL);
        j.start(name, SpecCodec.encode(spec), clock.instant());
        new Berth(this, spec, j, null);
      } catch (IOException | dev.berth.spi.JournalException e) {
        throw new IllegalStateException(e);
      }
    }

    void resume() {
      try {
        resumeFromJournal();
      } catch (dev.berth.spi.JournalException e) {
        throw new IllegalStateException(e);
      }
    }

    private void resumeFromJournal() throws dev.berth.spi.JournalException {
      note(name + " resumes");
      SqliteJournal j = SqliteJournal.open(journalFile(), Durability.NORMAL);
      Optional<Journal.Replay> replay = j.replay();
      if (replay.isEmpty() || replay.get().run().status().isPresent()) {
        note(name + " had ended: " + replay.map(p -> p.run().status().toString()).orElse("never started"));
        quietly(j::close);
        finished = true;
        return;
      }
      RunSpec stored = SpecCodec.decode(replay.get().run().specJson());
      new Berth(this, stored, j, replay.get());
    }

    void drain() {
      if (berth != null) {
        berth.drain();
      }
    }

    void kill9() {
      note(name + "'s Berth is killed (SIGKILL)");
      berth.die();
      berth = null;
    }

    void sigterm() {
      note(name + "'s Berth is stopped (" + (random.nextBoolean() ? "SIGTERM" : "SIGINT") + ")");
      berth.stopping = true;
      berth.engine.interrupt("interrupted by a signal");
    }

    void abandon() {
      if (berth != null) {
        berth.die();
        berth = null;
      }
    }
  }

  /** One Berth process running a run: its engine and everything it holds. */
  private final class Berth implements RunListener {
    final SimRun run;
    final World.Proc process;
    final TaskSide tasks;
    final CrashableJournal journal;
    final SharedReservations ledger;
    final Engine engine;
    List<Waiting> waiting = List.of();
    Decisions lastDecided;
    /** Starts and ends so far: a quiet host where this stands still is stuck. */
    long moves;
    boolean stopping;
    boolean started;

    Berth(SimRun run, RunSpec spec, SqliteJournal j, Journal.Replay replay) {
      this.run = run;
      run.incarnations++;
      process = world.start(World.Kind.BERTH, 1, new TreeMap<>(), run.name, null, 0);
      journal = new CrashableJournal(j, disk);
      tasks = new TaskSide(world, process, run.name, random, faults, (r, t, a) -> checkNotSucceeded(t),
          this::placement);
      Path hostDir = dir.resolve("host");
      quietly(() -> Files.createDirectories(hostDir));
      ledger = new BusyLedger(HostLedgers.open(hostDir, world.liveness(), world.taskProcesses()), ledgerLock);
      Engine e = new Engine(spec, new RunLayout(run.runDir), tasks,
          new FakeHostProbe().cpus(CORES).totalMemory(HOST_BYTES).availableMemory(HOST_BYTES),
          new SimulatedGpuProbe(SimulatedDevices.parse(GPUS)), clock, clock, this)
          .journal(journal, SpecCodec::encode).controlChannel(tasks::open).processes(world.table());
      if (replay != null) {
        e.resume(replay);
      }
      engine = e;
      run.berth = this;
      try {
        ledger.join(new SharedReservations.Run(run.name + "-" + run.incarnations, run.name, run.runDir.toString(),
            run.uid, run.user, process.pid, process.startTicks), clock.instant());
        engine.shareHost(ledger);
        engine.start();
        started = true;
      } catch (RuntimeException failed) {
        note(run.name + "'s Berth fails to start: " + failed.getMessage());
        stopOnFailure();
      }
    }

    private void checkNotSucceeded(TaskId task) {
      if (run.succeeded.contains(task)) {
        throw new Violation("3 (a success stands): " + run.name + "/" + task + " succeeded and is started again");
      }
    }

    private Placement placement(TaskId task, int attempt) {
      Occupancy o = engine.state().occupancy().get(task);
      return o == null ? null : o.placement();
    }

    void drain() {
      if (!started) {
        return;
      }
      try {
        engine.drain();
      } catch (Violation v) {
        throw v;
      } catch (RuntimeException failed) {
        note(run.name + "'s Berth stops on a failure: " + failed.getMessage());
        stopOnFailure();
        return;
      }
      if (engine.result() != null) {
        note(run.name + "'s Berth ends: " + engine.result().report().status());
        quietly(journal::close);
        ledger.close();
        world.exit(process, 0);
        run.berth = null;
        run.finished = engine.result().report().status() != dev.berth.core.report.RunStatus.INTERRUPTED;
      }
    }

    /** Berth's own stop on an error it cannot go on from: it kills its tasks on the way out and exits 3. */
    void stopOnFailure() {
      for (World.Proc p : tasks.live()) {
        run.killedByBerth.add(p.task + "#" + p.attempt);
        world.kill(p);
      }
      quietly(journal::close);
      ledger.close();
      tasks.die();
      world.exit(process, 3);
      run.berth = null;
    }

    /** Killed with SIGKILL: nothing more happens in this Berth; its task processes run on. */
    void die() {
      tasks.die();
      journal.crash();
      ledger.close();
      world.exit(process, 137);
    }

    @Override
    public void taskEvent(TaskRecord task, dev.berth.core.lifecycle.TaskEvent event) {
      moves++;
      if (TRACE) {
        note(run.name + "/" + task.spec().id() + ": " + event);
      }
    }

    @Override
    public void decided(Decisions d) {
      lastDecided = d;
      if (TRACE && !d.waiting().equals(waiting)) {
        note(run.name + " decides: " + d.waiting().stream().map(w -> w.task() + " " + w.describe()).toList());
      }
      waiting = List.copyOf(d.waiting());
    }
  }
}
