package dev.berth.session;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.RunSpec;
import dev.berth.journal.SpecCodec;
import dev.berth.os.OwnEnvironment;
import dev.berth.os.SystemTimers;
import dev.berth.runtime.engine.Engine;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.engine.RunListener;
import dev.berth.runtime.engine.RunListeners;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.runtime.pool.WorkerPoolExecutor;
import dev.berth.runtime.probe.OshiHostProbe;
import dev.berth.spi.Executor;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.HostProbe;
import dev.berth.spi.Journal;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.Timers;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Everything a run on this machine is made of, wired once: the executor (local processes, kept
 * under a {@link ProcessGuard}, or Slurm jobs), the host and GPU probes, the timers, the
 * notifications, the status file and the engine over them, with the run's journal. Closed in one
 * place, after the engine ended.
 */
final class RunParts {

  private static final long HELPERS_WAIT_MILLIS = 10_000;
  /** Processes starting at once: starting one is kernel work, which more threads than cores do not speed up. */
  private static final int LAUNCH_THREADS = Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors()));

  final Engine engine;
  final DetachableJournal journal;
  final ProcessGuard guard;
  private final Executor executor;
  private final GpuProbe gpuProbe;
  private final SystemTimers systemTimers;
  private final Notifications notifications;
  private final StatusFile status;
  private final MemorySamples samples;
  private final SharedReservations hostLedger;
  private final InstantSource clock;

  private RunParts(Engine engine, DetachableJournal journal, ProcessGuard guard, Executor executor,
      GpuProbe gpuProbe, SystemTimers systemTimers, Notifications notifications, StatusFile status,
      MemorySamples samples, SharedReservations hostLedger, InstantSource clock) {
    this.engine = engine;
    this.journal = journal;
    this.guard = guard;
    this.executor = executor;
    this.gpuProbe = gpuProbe;
    this.systemTimers = systemTimers;
    this.notifications = notifications;
    this.status = status;
    this.samples = samples;
    this.hostLedger = hostLedger;
    this.clock = clock;
  }

  /**
   * Blanks the variables that hold the run's secrets in Berth's own environment as other processes
   * read it ({@code /proc/PID/environ}), once they were read and before any task starts: tasks do
   * not inherit them, and now cannot read them from their parent either. Where that cannot be done,
   * says which stay readable there.
   */
  private static void blankSecrets(RunSpec spec, SessionOptions o) {
    Set<String> left = OwnEnvironment.blank(AdapterTables.secretVariables(spec));
    if (!left.isEmpty()) {
      o.warn("berth: " + String.join(", ", left) + (left.size() == 1 ? " stays" : " stay") + " readable in Berth's"
          + " own environment, where a task running as you can read it (this system does not let a process blank"
          + " it); smtp.password-file and notify.url-file keep a secret out of every environment");
    }
  }

  /**
   * Wires the run of {@code spec} in {@code layout}'s folder; on a failure, whatever was made is
   * closed again.
   *
   * @param journal the run's open journal, or null for a run without one
   * @param replay what the journal held, for a run that resumes, or null
   * @param allocation the limits of the Slurm allocation this Berth runs inside, whose memory caps the host probe
   * @throws SessionException when the mail or webhook settings are not usable, or the host ledger
   *     cannot be joined
   */
  static RunParts wire(RunSpec spec, RunLayout layout, Journal journal, Journal.Replay replay, SessionOptions o,
      InstantSource clock, Optional<AllocationLimits> allocation) throws SessionException {
    Notifications notifications;
    try {
      notifications = Notifications.of(spec, layout, clock, o.say(), o.env());
    } catch (IllegalArgumentException e) {
      throw new SessionException(e.getMessage());
    }
    blankSecrets(spec, o);
    List<AutoCloseable> made = new ArrayList<>(List.of(notifications));
    try {
      GpuProbe gpuProbe = o.gpuProbe().orElseGet(() -> TaskRunners.gpuProbe(spec));
      made.add(gpuProbe);
      if (!spec.gpus().equals(DeviceSelection.DEFAULT)) {
        gpuProbe.lastError().ifPresent(why -> o.say("gpus: " + why));
      }
      SystemTimers systemTimers = o.timers().isPresent() ? null
          : new SystemTimers(e -> o.warn("berth: timer failed: " + e));
      if (systemTimers != null) {
        made.add(systemTimers);
      }
      Timers timers = o.timers().isPresent() ? o.timers().get() : systemTimers;
      Executor given = o.executor().orElseGet(() -> TaskRunners.executor(spec));
      WorkerPoolExecutor pools = given instanceof LocalProcessExecutor local ? TaskRunners.withPools(spec, local) : null;
      ProcessGuard guard = pools != null ? new ProcessGuard((LocalProcessExecutor) given, pools) : null;
      Executor executor = guard != null ? guard : given;
      made.add(executor::close);
      StatusFile status = new StatusFile(layout.runDir());
      if (given instanceof LocalProcessExecutor local) {
        status.containment(local.containment().describe());
        boolean configured = LocalKeys.TABLE.of(spec).enforceMemory();
        boolean anyLimited = spec.tasks().stream().anyMatch(t -> t.enforcesMemory(configured));
        if (anyLimited && !local.containment().limitsMemory()) {
          o.warn("berth: enforce-memory: no cgroup can be made on this machine ("
              + local.containment().mode() + "); task memory is measured but not limited");
        }
      }
      made.add(status);
      HostProbe node = o.hostProbe().orElseGet(OshiHostProbe::new);
      HostProbe inAllocation = allocation.map(limits -> InsideAllocation.hostProbe(node, limits)).orElse(node);
      HostProbe hostProbe = pools != null ? pools.holding(inAllocation) : inAllocation; // engines' pool memory
      List<RunListener> listeners = new ArrayList<>(o.listeners());
      listeners.add(notifications);
      listeners.add(status);
      listeners.add(new ReportWarmUp()); // the end's report code made ready while the tasks run
      MemorySamples samples = journal == null ? null : new MemorySamples(layout.runDir(), o::warn);
      if (samples != null) {
        made.add(samples);
        listeners.add(samples);
      }
      GpuProbe gpus = pools != null ? pools.holdingGpus(gpuProbe) : gpuProbe; // engines' pool gpu-memory
      Engine engine = new Engine(spec, TaskRunners.layout(spec, layout), executor, hostProbe, gpus, clock, timers,
          RunListeners.of(listeners.toArray(RunListener[]::new)));
      if (o.keepOpen()) {
        engine.keepOpen();
      }
      if (given instanceof LocalProcessExecutor) {
        engine.launchOnThreads(LAUNCH_THREADS); // the loop decides while processes start
      }
      DetachableJournal detachable = journal == null ? null : new DetachableJournal(journal);
      if (detachable != null) {
        engine.journal(detachable, run -> SpecCodec.encode(run, AdapterTables.ALL));
      }
      if (replay != null) {
        engine.resume(replay);
      }
      SharedReservations hostLedger = HostLedgerPart.join(spec, layout, o, clock);
      if (hostLedger != null) {
        made.add(hostLedger);
        engine.shareHost(hostLedger);
      }
      return new RunParts(engine, detachable, guard, executor, gpuProbe, systemTimers, notifications, status,
          samples, hostLedger, clock);
    } catch (SessionException | RuntimeException | Error e) {
      made.forEach(RunParts::closeQuietly);
      throw e;
    }
  }

  /**
   * For a JVM that exits with the run to be resumed: nothing more is journaled, and the task
   * processes are killed without their exits being reported. False when the executor is not one
   * this session can abandon (a test's, or Slurm's): the caller then cancels the run.
   */
  boolean abandon() {
    if (journal != null) {
      journal.detach();
    }
    engine.leaveAsCrashed();
    if (guard == null) {
      return false;
    }
    guard.abandon();
    return true;
  }

  /**
   * Closes everything once the engine ended: the journal (which recorded the run's end, unless the
   * engine failed: then the run stays resumable), the executor (killing any process still alive),
   * the timers, the GPU probe, the status file and the notifications (waiting a bounded time for
   * those in flight), then waits for the executor's threads to end.
   *
   * @return whether the calling thread was interrupted while waiting
   */
  boolean close() {
    if (journal != null) {
      closeQuietly(journal);
    }
    closeQuietly(executor::close);
    if (systemTimers != null) {
      systemTimers.close();
    }
    closeQuietly(gpuProbe);
    closeQuietly(status);
    if (samples != null) {
      closeQuietly(samples);
    }
    closeQuietly(notifications);
    if (hostLedger != null) {
      HostLedgerPart.leave(hostLedger, clock);
    }
    return guard != null && awaitGuard();
  }

  private boolean awaitGuard() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HELPERS_WAIT_MILLIS);
    boolean interrupted = false;
    try {
      guard.awaitExecutor(HELPERS_WAIT_MILLIS);
    } catch (InterruptedException e) {
      interrupted = true;
    }
    for (Thread t : guard.threads()) {
      if (t != Thread.currentThread()) {
        interrupted |= Threads.join(t, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    }
    return interrupted;
  }

  static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing is best effort; the run is over
    }
  }
}
