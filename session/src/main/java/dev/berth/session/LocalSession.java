package dev.berth.session;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.RunState;
import dev.berth.report.WrittenReports;
import dev.berth.runtime.control.CancelRequests;
import dev.berth.runtime.control.RunLock;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.engine.RunResult;
import dev.berth.slurm.SlurmKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One run on this machine, wired in one place for the {@code berth} command and the Java API alike:
 * {@link #open} takes the folder's lock, opens the journal (resuming a run it holds), the host and
 * GPU probes, the executor (local processes, or Slurm jobs), the timers, the notifications, the
 * status file and the engine; {@link #run()} or {@link #start} runs the engine, watching for
 * {@code berth cancel}, and writes the reports as the run ends; {@link #close()} ends what still
 * runs, terminates live task processes, closes everything and releases the folder.
 *
 * <p>In {@code slurm.mode: allocation} (and not {@link SessionOptions.Builder#insideAllocation
 * inside} one), the engine runs inside the allocations: the session then only holds the folder
 * ({@link #inAllocations()}) while {@link #runInAllocations()} submits them, one after another.
 *
 * <p>A JVM that exits while the run goes on runs {@link SessionOptions.JvmExit the options' policy}.
 */
public final class LocalSession implements AutoCloseable {

  private static final long JVM_EXIT_WAIT_SECONDS = 30;

  private final SessionOptions options;
  private final RunSpec spec;
  private final RunLayout layout;
  private final boolean resumed;
  private final RunLock lock;
  private final RunParts parts;
  private final Thread hook;
  private final CountDownLatch closedLatch = new CountDownLatch(1);
  private volatile boolean closed;
  /** The JVM exits with the run left to be resumed: see {@link #jvmExit()}. */
  private volatile boolean abandoned;
  private volatile Thread loop;
  private volatile RunResult result;
  private volatile WrittenReports written;
  private volatile IOException reportFailure;

  private LocalSession(SessionOptions options, RunSpec spec, RunLayout layout, boolean resumed, RunLock lock,
      RunParts parts) {
    this.options = options;
    this.spec = spec;
    this.layout = layout;
    this.resumed = resumed;
    this.lock = lock;
    this.parts = parts;
    this.hook = new Thread(this::jvmExit, "berth-shutdown-" + spec.name());
  }

  /**
   * Opens the run: nothing runs until {@link #run()} or {@link #start}.
   *
   * @throws RunFinishedException when the folder holds a run that finished already
   * @throws SessionException when the run cannot be opened as asked (the folder is held by another
   *     run, the journal is missing or disagrees with the spec, Slurm cannot be reached, a
   *     notification setting is not usable); nothing was started and the folder is released
   * @throws IOException when the folder cannot be created, moved aside or read
   */
  public static LocalSession open(SessionOptions o) throws SessionException, IOException {
    InstantSource clock = o.clock();
    RunLayout folder = new RunLayout(o.workdir());
    RunFolder.refuseUnsafeWorkdir(o.workdir(), o);
    if (o.spec().isPresent()) {
      RunFolder.refuseUnusable(o.spec().get(), o);
    }
    RunLock lock = RunFolder.lock(folder.runDir(), o, clock.instant());
    RunJournal.Opened opened = null;
    try {
      opened = RunFolder.journal(folder.runDir(), o, clock.instant());
      RunSpec given = o.adjust().apply(opened.spec());
      RunFolder.refuseUnusable(given, o);
      boolean resumed = opened.replay().isPresent();
      if (given.config().onCluster() && o.keepOpen()) {
        throw new SessionException("scheduler.executor slurm is for a run given whole (berth run); a session that"
            + " takes tasks as it goes runs them on this machine");
      }
      if (given.config().onCluster() && SlurmKeys.TABLE.of(given).allocationMode() && !o.insideAllocation()) {
        RunFolder.closeQuietly(opened.journal()); // the Berth inside each allocation opens it
        return new LocalSession(o, given, folder, resumed, lock, null);
      }
      AllocationLimits limits = o.insideAllocation() ? AllocationLimits.ofThisJob(o.env()) : null;
      RunSpec spec = limits != null ? InsideAllocation.localSpec(given, limits) : given;
      RunParts parts = RunParts.wire(spec, folder, opened.journal(), opened.replay().orElse(null), o, clock,
          Optional.ofNullable(limits));
      return new LocalSession(o, spec, TaskRunners.layout(spec, folder), resumed, lock, parts);
    } catch (SessionException | RuntimeException | Error e) {
      if (opened != null) {
        RunFolder.closeQuietly(opened.journal());
      }
      if (lock != null) {
        RunParts.closeQuietly(lock);
      }
      throw e;
    }
  }

  /**
   * The folder a session on {@code workdir} names as the run's, absolute and normal, as its messages
   * print it; known before the session opens, for a front door's dry run and refusals.
   */
  public static Path runDir(Path workdir) {
    return new RunLayout(workdir).runDir();
  }

  /** The spec the run goes on with: the one given, or the journal's, with the session's adjustments. */
  public RunSpec spec() {
    return spec;
  }

  /** Where the run's files go: the run folder, and the task folders (elsewhere for Slurm's {@code workdir-root}). */
  public RunLayout layout() {
    return layout;
  }

  /** Whether the run resumed what its journal held. */
  public boolean resumed() {
    return resumed;
  }

  /**
   * Whether the run's tasks run in Slurm allocations, each resuming the run inside it: then this
   * session only holds the folder (its journal is closed for them), and {@link #run()} is refused.
   */
  public boolean inAllocations() {
    return parts == null;
  }

  /**
   * Runs the tasks of a run {@link #inAllocations() in allocations}: asks Slurm for one allocation
   * after another, each running a Berth that resumes the run's journal inside it, until the run
   * finishes or stops with tasks left (its report then written from the journal); says each
   * allocation's news on the options' {@code say} lines, and why the run stopped on its {@code warn} lines.
   *
   * @return whether the run finished with every task succeeded
   * @throws IllegalStateException when the run's tasks do not run in allocations
   */
  public boolean runInAllocations() throws InterruptedException {
    if (parts != null) {
      throw new IllegalStateException("the tasks of " + spec.name() + " run here, not inside Slurm allocations");
    }
    return new Allocations(options).run(spec, layout);
  }

  /** The run's state, with what was resumed: read it only before the run starts, or on the engine's thread. */
  public RunState state() {
    return engineParts().engine.state();
  }

  /** Whether the calling thread is the engine's (a listener's), from which the session must not be closed. */
  public boolean onEngineThread() {
    return Thread.currentThread() == loop;
  }

  /**
   * Runs the engine on the calling thread until the run ends, watching for {@code berth cancel},
   * then writes the reports.
   *
   * @throws IOException when {@code berth cancel} cannot be watched or the reports cannot be written
   */
  public RunEnd run() throws InterruptedException, IOException {
    RunParts p = beginRun();
    CancelRequests requests = watchCancelRequests();
    try {
      return ended(p.engine.run());
    } finally {
      requests.close();
    }
  }

  /**
   * Starts the engine on its own daemon thread, {@code berth-session-<name>}, for a run that
   * {@link SessionOptions.Builder#keepOpen keeps open}; the reports are written as the run ends.
   *
   * @param onFailure told, on that thread, when the engine stops on an error
   */
  public void start(Consumer<Throwable> onFailure) {
    beginRun();
    Thread t = new Thread(() -> runInBackground(onFailure), "berth-session-" + spec.name());
    t.setDaemon(true);
    loop = t;
    t.start();
  }

  /** Adds a group to a run that is kept open; see {@code Engine.submit}. */
  public CompletableFuture<Void> submit(GroupSpec group) {
    return engineParts().engine.submit(group);
  }

  /**
   * Interrupts the run because Berth stops (a signal): running tasks are terminated and recorded
   * interrupted, nothing more starts, and {@link #run()} returns an {@code INTERRUPTED} end once their
   * processes have exited; the journal keeps the run unfinished, to be resumed. Safe from any thread
   * (a signal handler's). See {@code Engine.interrupt}.
   */
  public void interrupt(String reason) {
    if (parts != null) {
      parts.engine.interrupt(reason);
    }
  }

  /** Cancels these tasks; see {@code Engine.cancel(Collection, String)}. */
  public void cancel(Collection<TaskId> tasks, String reason) {
    engineParts().engine.cancel(tasks, reason);
  }

  /** Cancels the tasks matching any of these patterns, or the whole run when there are none. */
  public void cancelMatching(List<String> patterns, String reason) {
    engineParts().engine.cancelMatching(patterns, reason);
  }

  /** How the run ended, once it has. */
  public Optional<RunEnd> end() {
    RunResult r = result;
    return r == null ? Optional.empty()
        : Optional.of(new RunEnd(r.report(), r.reportFile(), Optional.ofNullable(written)));
  }

  /**
   * Closes the session leaving its run to be resumed, as a crash would: nothing more is journaled
   * (not the run's end either), task processes still alive are killed and the folder is released.
   * For a run kept open that stops with nothing left to do but takes tasks again when a later
   * session resumes it (a user's queue, {@code berth submit}): a run whose end was journaled is
   * finished, and does not. Falls back to {@link #close()} where the executor cannot be left so.
   *
   * @throws IllegalStateException when called from the engine's thread
   */
  public void closeResumable() {
    if (onEngineThread()) {
      throw new IllegalStateException("a session must not be closed from the engine's thread (a RunListener)");
    }
    if (parts != null && loop != null && !closed && parts.abandon()) {
      abandoned = true;
    }
    close();
  }

  /**
   * Ends the run if it still goes on (it is interrupted: tasks that have not ended are left to a
   * later session that resumes it, running ones are terminated and recorded interrupted), waits for the
   * engine, terminates task processes still alive, closes the journal, probes, timers,
   * notifications and status file, and releases the folder. Does nothing when already closed.
   *
   * @throws IllegalStateException when called from the engine's thread
   * @throws UncheckedIOException when the reports could not be written as the run ended in the
   *     background (everything else is closed first)
   */
  @Override
  public void close() {
    if (onEngineThread()) {
      throw new IllegalStateException("a session must not be closed from the engine's thread (a RunListener)");
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    boolean interrupted = false;
    try {
      Thread t = loop;
      if (t != null) {
        if (abandoned) {
          t.interrupt(); // the exits of its abandoned attempts never come: the engine would wait for ever
        } else {
          parts.engine.end("the session was closed");
        }
        interrupted |= Threads.join(t, 0);
      }
      if (parts != null) {
        interrupted |= parts.close();
      }
    } finally {
      if (lock != null) {
        RunParts.closeQuietly(lock);
      }
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException | IllegalArgumentException notRegistered) {
        // the JVM is exiting (the hook is what runs now), or the run never started
      }
      closedLatch.countDown();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (reportFailure != null) {
      throw new UncheckedIOException("cannot write the reports into " + layout.runDir(), reportFailure);
    }
  }

  private RunParts engineParts() {
    if (parts == null) {
      throw new IllegalStateException("the tasks of " + spec.name() + " run inside Slurm allocations, not here");
    }
    return parts;
  }

  private synchronized RunParts beginRun() {
    RunParts p = engineParts();
    if (closed || loop != null || result != null) {
      throw new IllegalStateException("the session of " + spec.name() + " has run already or is closed");
    }
    Runtime.getRuntime().addShutdownHook(hook);
    return p;
  }

  private void runInBackground(Consumer<Throwable> onFailure) {
    CancelRequests requests = null;
    try {
      try {
        requests = watchCancelRequests();
      } catch (IOException e) {
        options.warn("berth: `berth cancel` cannot reach session " + spec.name() + ": " + e.getMessage());
      }
      try {
        ended(parts.engine.run());
      } catch (IOException e) {
        reportFailure = e;
      }
    } catch (Throwable t) {
      if (abandoned && t instanceof InterruptedException) {
        return; // stopped by close() after the JVM's exit left the run to be resumed
      }
      onFailure.accept(t);
      if (t instanceof Error e && !(t instanceof StackOverflowError)) {
        throw e;
      }
    } finally {
      if (requests != null) {
        RunParts.closeQuietly(requests);
      }
    }
  }

  /**
   * Watches the folder for {@code berth cancel}. With no task named, a run given whole is cancelled;
   * a run kept open cancels every task not ended and stays open for more.
   */
  private CancelRequests watchCancelRequests() throws IOException {
    return CancelRequests.watch(layout.runDir(), r -> parts.engine.cancelMatching(
        r.patterns().isEmpty() && options.keepOpen() ? List.of("*") : r.patterns(), r.reason()));
  }

  private RunEnd ended(RunResult r) throws IOException {
    result = r;
    if (options.writeReports()) {
      written = RunReports.writeBeside(r.report(), layout.runDir(), spec);
      written.warnings().forEach(w -> options.say("report: " + w));
    }
    return end().orElseThrow();
  }

  /** The JVM exits while the session is open: see {@link SessionOptions.JvmExit}. The shutdown hook's work; tests call it. */
  void jvmExit() {
    if (closed) {
      return;
    }
    if (spec.config().onCluster() && options.leaveJobs().test(SlurmKeys.TABLE.of(spec).onExit())) {
      return;
    }
    if (options.jvmExit() == SessionOptions.JvmExit.LEAVE_RESUMABLE && parts.abandon()) {
      abandoned = true;
      return;
    }
    parts.engine.interrupt("interrupted: the JVM is shutting down");
    try {
      if (loop != null) {
        loop.join(TimeUnit.SECONDS.toMillis(JVM_EXIT_WAIT_SECONDS));
      } else {
        closedLatch.await(JVM_EXIT_WAIT_SECONDS, TimeUnit.SECONDS); // the thread in run() closes the session
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
