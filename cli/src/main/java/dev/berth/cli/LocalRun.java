package dev.berth.cli;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.report.RunStatus;
import dev.berth.os.SystemTimers;
import dev.berth.report.ReportFiles;
import dev.berth.report.ReportOptions;
import dev.berth.report.WrittenReports;
import dev.berth.runtime.control.CancelRequests;
import dev.berth.runtime.control.RunLock;
import dev.berth.runtime.engine.Engine;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.engine.RunListeners;
import dev.berth.runtime.engine.RunResult;
import dev.berth.runtime.probe.OshiHostProbe;
import dev.berth.slurm.SlurmExecutor;
import dev.berth.spi.Executor;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.JournalException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Runs a spec on this machine with the real clock, probes, executor and journal: the one place the
 * {@code run} and {@code resume} commands share. Takes the workdir lock first, so a second
 * scheduler on the same run is refused before anything is touched.
 */
final class LocalRun {

  private final PrintStream out;
  private final PrintWriter err;
  private final boolean progress;
  private UnaryOperator<SchedulerConfig> adjust = UnaryOperator.identity();
  private boolean insideAllocation;

  LocalRun(PrintStream out, PrintWriter err, boolean progress) {
    this.out = out;
    this.err = err;
    this.progress = progress;
  }

  /**
   * Changes the configuration the run goes on with, after the journal gave it: settings of this
   * session only ({@code --on-exit}), never part of what the run is.
   */
  LocalRun adjust(UnaryOperator<SchedulerConfig> change) {
    this.adjust = change;
    return this;
  }

  /** Runs as the engine inside a Slurm allocation that another Berth asked for (see {@link AllocationRun}). */
  LocalRun insideAllocation() {
    this.insideAllocation = true;
    return this;
  }

  /**
   * Runs (or resumes) the run in {@code layout}'s folder.
   *
   * @param spec the spec given now, or null to resume with the spec the run started with
   */
  int execute(RunSpec spec, RunLayout layout, RunJournal.AllowChanged allow, boolean fresh)
      throws InterruptedException, IOException {
    return execute(spec, layout, allow, fresh, true);
  }

  /**
   * Runs (or resumes) the run in {@code layout}'s folder.
   *
   * @param journaled whether to keep a journal; without one the run cannot resume
   */
  int execute(RunSpec spec, RunLayout layout, RunJournal.AllowChanged allow, boolean fresh, boolean journaled)
      throws InterruptedException, IOException {
    InstantSource clock = InstantSource.system();
    Optional<String> unusable = spec == null ? Optional.empty() : clusterProblem(spec);
    if (unusable.isPresent()) {
      err.println("berth: " + unusable.get()); // before the journal exists: nothing of the run is started
      return ExitCodes.BAD_INPUT;
    }
    RunLock lock;
    try {
      if (fresh) {
        RunLock.setAside(layout.runDir(), ProcessHandle.current().pid(), clock.instant())
            .ifPresent(p -> out.println("the previous run in this folder was moved to " + p));
      }
      // Inside an allocation, the Berth that asked for it holds the lock and waits for this one.
      lock = insideAllocation ? null : RunLock.acquire(layout.runDir(), ProcessHandle.current().pid(), clock.instant());
    } catch (RunLock.LockedException e) {
      err.println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    try (lock) {
      if (!journaled) {
        return run(new RunJournal.Opened(null, spec, Optional.empty(), Optional.empty()),
            layout, clock);
      }
      RunJournal.Opened opened;
      try {
        opened = RunJournal.open(layout.runDir(), spec, allow, clock.instant());
      } catch (RunJournal.UserError e) {
        err.println("berth: " + e.getMessage());
        return ExitCodes.BAD_INPUT;
      } catch (JournalException e) {
        err.println("berth: " + e.getMessage());
        return ExitCodes.BAD_INPUT;
      }
      if (opened.finished().isPresent()) {
        closeQuietly(opened);
        if (!Files.exists(layout.reportJson())) {
          // the previous scheduler recorded the end but stopped before writing the reports
          try {
            JournalView view = JournalView.read(layout.runDir());
            ReportCommand.rebuild(view, view.report(clock.instant()));
          } catch (RunJournal.UserError e) {
            err.println("berth: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
          }
        }
        out.println(opened.spec().name() + " finished already (" + opened.finished().get() + "); its report is "
            + layout.reportJson() + ". Use --fresh to start it over, or berth report to rebuild the reports.");
        return opened.finished().get().equals(RunStatus.SUCCEEDED.name()) ? ExitCodes.OK : ExitCodes.TASKS_FAILED;
      }
      if (opened.replay().isPresent()) {
        out.println("resuming " + opened.spec().name() + " (" + opened.replay().get().events().size()
            + " events from " + RunJournal.file(layout.runDir()) + ")");
      }
      return run(opened, layout, clock);
    }
  }

  private int run(RunJournal.Opened opened, RunLayout layout, InstantSource clock)
      throws InterruptedException, IOException {
    RunSpec given = opened.spec().withConfig(adjust.apply(opened.spec().config()));
    Optional<String> unusable = clusterProblem(given);
    if (unusable.isPresent()) {
      closeQuietly(opened);
      err.println("berth: " + unusable.get());
      return ExitCodes.BAD_INPUT;
    }
    if (!insideAllocation && given.config().onCluster() && given.config().slurm().allocationMode()) {
      closeQuietly(opened);
      return new AllocationRun(out, err).run(given, layout);
    }
    RunSpec spec = insideAllocation ? InsideAllocation.localSpec(given, System::getenv) : given;
    boolean terminal = System.console() != null && progress;
    boolean color = terminal && System.getenv("NO_COLOR") == null;
    Notifications notifications;
    try {
      notifications = Notifications.of(spec, layout, clock, out, System::getenv);
    } catch (IllegalArgumentException e) {
      closeQuietly(opened);
      err.println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    CountDownLatch done = new CountDownLatch(1);
    try (var journal = opened.journal();
        notifications;
        SystemTimers timers = new SystemTimers(e -> err.println("berth: timer failed: " + e));
        Executor executor = TaskRunners.executor(spec);
        GpuProbe gpuProbe = TaskRunners.gpuProbe(spec);
        ConsoleView console = new ConsoleView(out, terminal, color, clock);
        StatusFile status = new StatusFile(layout.runDir())) {
      if (!spec.gpus().equals(DeviceSelection.DEFAULT)) {
        gpuProbe.lastError().ifPresent(why -> out.println("gpus: " + why));
      }
      RunLayout tasksLayout = TaskRunners.layout(spec, layout);
      Engine engine = new Engine(spec, tasksLayout, executor, new OshiHostProbe(), gpuProbe, clock, timers,
          RunListeners.of(console, notifications, status));
      if (journal != null) {
        engine.journal(journal);
      }
      opened.replay().ifPresent(engine::resume);
      CancelRequests requests = CancelRequests.watch(layout.runDir(), r -> engine.cancelMatching(r.patterns(), r.reason()));
      Thread hook = new Thread(() -> {
        if (spec.config().onCluster()) {
          console.holdStill();
        }
        if (spec.config().onCluster() && OnExit.leaveJobs(spec.config().slurm().onExit(), out)) {
          out.println("berth: submitted Slurm jobs are left running; berth resume " + layout.runDir()
              + " finds them again");
          return;
        }
        engine.cancel("interrupted");
        awaitQuietly(done);
      }, "berth-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        RunResult result = engine.run();
        console.close();
        WrittenReports written = ReportFiles.writeAll(result.report(), layout.runDir(),
            ReportOptions.defaults().withObjective(Notifications.objective(spec)));
        written.warnings().forEach(w -> out.println("report: " + w));
        console.summary(result.report(), result.reportFile(), written.html());
        return result.report().status() == RunStatus.SUCCEEDED ? ExitCodes.OK : ExitCodes.TASKS_FAILED;
      } finally {
        requests.close();
        done.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the JVM is already exiting because of Ctrl-C; the hook is what let us get here
        }
      }
    } catch (JournalException e) {
      err.println("berth: " + e.getMessage());
      return ExitCodes.INTERNAL;
    }
  }

  /** Why this machine cannot run {@code spec}'s tasks on Slurm, when they are to run there. */
  private Optional<String> clusterProblem(RunSpec spec) {
    if (!spec.config().onCluster() || insideAllocation) {
      return Optional.empty();
    }
    return SlurmExecutor.unusableHere(System.getenv().getOrDefault("PATH", ""));
  }

  private static void closeQuietly(RunJournal.Opened opened) {
    try {
      opened.journal().close();
    } catch (Exception e) {
      // nothing was written; the lock is released by the caller
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
