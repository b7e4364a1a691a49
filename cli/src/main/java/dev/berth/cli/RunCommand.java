package dev.berth.cli;

import dev.berth.core.model.RunSpec;
import dev.berth.runtime.control.CancelRequests;
import dev.berth.runtime.control.RunLock;
import dev.berth.report.ReportFiles;
import dev.berth.report.ReportOptions;
import dev.berth.report.WrittenReports;
import dev.berth.runtime.engine.Engine;
import dev.berth.runtime.engine.RunListeners;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.engine.RunResult;
import dev.berth.core.gpu.DeviceSelection;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.runtime.gpu.GpuProbes;
import dev.berth.runtime.gpu.ProcessCommandRunner;
import dev.berth.spi.GpuProbe;
import dev.berth.runtime.probe.OshiHostProbe;
import dev.berth.runtime.time.SystemTimers;
import dev.berth.spec.SpecException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code berth run SPEC}: runs every task of the spec and writes the report. */
@Command(name = "run", description = "Run every task of a spec within the machine's limits and write report.json.")
final class RunCommand implements Callable<Integer> {

  @Mixin SpecOptions specOptions;

  @Option(names = "--dry-run", description = "Print the plan and start nothing.")
  boolean dryRun;

  @Option(names = "--no-progress", description = "Plain lines instead of the live progress view.")
  boolean noProgress;

  @Option(
      names = "--gpus",
      paramLabel = "WHICH",
      description = "GPUs to use: auto (NVML, then nvidia-smi, then none), none, indices such as 0,2, or"
          + " simulated devices such as sim:2x80GiB. Overrides the spec's gpus.")
  String gpus;

  @Spec CommandSpec command;

  @Override
  public Integer call() throws InterruptedException, IOException {
    RunSpec spec;
    try {
      spec = specOptions.load();
    } catch (SpecException e) {
      command.commandLine().getErr().println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    if (gpus != null) {
      try {
        DeviceSelection.parse(gpus);
      } catch (IllegalArgumentException e) {
        command.commandLine().getErr().println("berth: --gpus: " + e.getMessage());
        return ExitCodes.BAD_INPUT;
      }
      spec = spec.withGpus(gpus);
    }
    PrintStream out = new PrintStream(new WriterOutputStream(command.commandLine().getOut()), true);
    RunLayout layout = new RunLayout(Path.of(spec.workdir()));
    if (dryRun) {
      PlanPrinter.print(spec, layout.runDir(), out);
      out.println("dry run: nothing started");
      return ExitCodes.OK;
    }
    return execute(spec, layout, out);
  }

  private int execute(RunSpec spec, RunLayout layout, PrintStream out) throws InterruptedException, IOException {
    boolean terminal = System.console() != null && !noProgress;
    boolean color = terminal && System.getenv("NO_COLOR") == null;
    InstantSource clock = InstantSource.system();
    CountDownLatch done = new CountDownLatch(1);
    Notifications notifications;
    try {
      notifications = Notifications.of(spec, layout, clock, out, System::getenv);
    } catch (IllegalArgumentException e) {
      command.commandLine().getErr().println("berth: " + specOptions.spec + ": " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    RunLock lock;
    try {
      lock = RunLock.acquire(layout.runDir(), ProcessHandle.current().pid(), clock.instant());
    } catch (RunLock.LockedException e) {
      command.commandLine().getErr().println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    try (lock;
        notifications;
        SystemTimers timers = new SystemTimers(e -> command.commandLine().getErr().println("berth: timer failed: " + e));
        LocalProcessExecutor executor = new LocalProcessExecutor();
        GpuProbe gpuProbe = GpuProbes.select(DeviceSelection.parse(spec.gpus()), new ProcessCommandRunner());
        ConsoleView console = new ConsoleView(out, terminal, color, clock)) {
      gpuProbe.lastError().ifPresent(why -> out.println("gpus: " + why));
      Engine engine = new Engine(spec, layout, executor, new OshiHostProbe(), gpuProbe, clock, timers,
          RunListeners.of(console, notifications));
      CancelRequests requests = CancelRequests.watch(layout.runDir(), r -> engine.cancelMatching(r.patterns(), r.reason()));
      Thread hook = new Thread(() -> {
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
        return result.report().status() == dev.berth.core.report.RunStatus.SUCCEEDED
            ? ExitCodes.OK
            : ExitCodes.TASKS_FAILED;
      } finally {
        requests.close();
        done.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the JVM is already exiting because of Ctrl-C; the hook is what let us get here
        }
      }
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
