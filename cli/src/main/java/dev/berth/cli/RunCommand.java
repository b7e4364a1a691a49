package dev.berth.cli;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.RunSpec;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.serve.DashboardServer;
import dev.berth.session.SpecChange;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code berth run SPEC}: runs every task of the spec and writes the report. */
@Command(name = "run", description = "Run every task of a spec within the machine's limits and write report.json.")
final class RunCommand implements Callable<Integer> {

  @Mixin SpecOptions specOptions;

  @Option(names = "--dry-run", description = "Print the plan (group order, every edge with its flags, the tasks"
      + " that can never fit this host or the --gpus) and start nothing.")
  boolean dryRun;

  @Option(names = "--no-progress", description = "Plain lines instead of the live progress view.")
  boolean noProgress;

  @Option(names = "--fresh", description = "Start over: move an earlier run in the same workdir aside first.")
  boolean fresh;

  @Option(names = "--no-journal", description = "Keep no journal: a little faster, but the run cannot be resumed.")
  boolean noJournal;

  @Option(
      names = "--allow-changed",
      paramLabel = "stored|new",
      description = "When resuming a run whose spec changed: go on with the spec it started with (stored), or"
          + " apply the changes (new: tasks keep their history by id, finished ones do not run again).")
  String allowChangedText;

  SpecChange allowChanged = SpecChange.REFUSE;

  @Option(
      names = "--gpus",
      paramLabel = "WHICH",
      description = "GPUs to use: auto (NVML, then nvidia-smi, then none), none, indices such as 0,2, or"
          + " simulated devices such as sim:2x80GiB. Overrides the spec's gpus.")
  String gpus;

  @Option(names = "--executor", paramLabel = "local|slurm",
      description = "Where tasks run: local processes, or Slurm batch jobs. Overrides the spec's executor.")
  String executor;

  @Mixin OnExitOption onExit;

  @Mixin HostLedgerOption hostLedger;

  @Mixin ServeOption serve;

  @Spec CommandSpec command;

  @Override
  public Integer call() throws InterruptedException, IOException {
    if (executor != null && !executor.equals("local") && !executor.equals("slurm")) {
      command.commandLine().getErr().println("berth: --executor must be local or slurm, not " + executor);
      return ExitCodes.BAD_INPUT;
    }
    if (!onExit.valid(command.commandLine().getErr()) || !hostLedger.valid(command.commandLine().getErr())
        || !serve.valid(command.commandLine().getErr(), hostLedger.shared())) {
      return ExitCodes.BAD_INPUT;
    }
    if (executor != null) {
      specOptions.overrides.add("scheduler.executor=" + executor);
    }
    Optional<RunSpec> loaded = specOptions.loadOrReport(command.commandLine().getErr());
    if (loaded.isEmpty()) {
      return ExitCodes.BAD_INPUT;
    }
    RunSpec spec = loaded.get();
    if (allowChangedText != null) {
      if (!allowChangedText.equals("stored") && !allowChangedText.equals("new")) {
        command.commandLine().getErr().println("berth: --allow-changed must be stored or new, not " + allowChangedText);
        return ExitCodes.BAD_INPUT;
      }
      allowChanged = SpecChange.valueOf(allowChangedText.toUpperCase(Locale.ROOT));
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
      DryRun.print(spec, layout.runDir(), out);
      return ExitCodes.OK;
    }
    Optional<DashboardServer> dashboard = startDashboard();
    try {
      return new LocalRun(out, command.commandLine().getErr(), !noProgress)
          .adjust(onExit.adjust())
          .hostLedger(hostLedger.shared())
          .specFile(specOptions.spec)
          .execute(spec, layout, allowChanged, fresh, !noJournal);
    } finally {
      dashboard.ifPresent(ServeOption::stop);
    }
  }

  private Optional<DashboardServer> startDashboard() {
    try {
      return serve.start(command.commandLine().getErr());
    } catch (Exception e) {
      command.commandLine().getErr().println("berth: --serve: cannot serve the dashboard: " + e.getMessage());
      return Optional.empty();
    }
  }
}
