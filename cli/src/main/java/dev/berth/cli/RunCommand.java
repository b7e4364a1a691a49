package dev.berth.cli;

import dev.berth.core.model.RunSpec;
import dev.berth.runtime.engine.Engine;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.engine.RunResult;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.runtime.probe.OshiHostProbe;
import dev.berth.runtime.time.SystemTimers;
import dev.berth.spec.SpecException;
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

  @Spec CommandSpec command;

  @Override
  public Integer call() throws InterruptedException {
    RunSpec spec;
    try {
      spec = specOptions.load();
    } catch (SpecException e) {
      command.commandLine().getErr().println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
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

  private int execute(RunSpec spec, RunLayout layout, PrintStream out) throws InterruptedException {
    boolean terminal = System.console() != null && !noProgress;
    boolean color = terminal && System.getenv("NO_COLOR") == null;
    InstantSource clock = InstantSource.system();
    CountDownLatch done = new CountDownLatch(1);
    try (SystemTimers timers = new SystemTimers(e -> command.commandLine().getErr().println("berth: timer failed: " + e));
        LocalProcessExecutor executor = new LocalProcessExecutor();
        ConsoleView console = new ConsoleView(out, terminal, color, clock)) {
      Engine engine = new Engine(spec, layout, executor, new OshiHostProbe(), clock, timers, console);
      Thread hook = new Thread(() -> {
        engine.cancel("interrupted");
        awaitQuietly(done);
      }, "berth-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        RunResult result = engine.run();
        console.close();
        console.summary(result.report(), result.reportFile());
        return result.report().status() == dev.berth.core.report.RunStatus.SUCCEEDED
            ? ExitCodes.OK
            : ExitCodes.TASKS_FAILED;
      } finally {
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
