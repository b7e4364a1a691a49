package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.RunSpec;
import dev.berth.serve.DashboardServer;
import dev.berth.session.LocalSession;
import dev.berth.session.SpecChange;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** {@code berth run SPEC}: runs every task of the spec and writes the report. */
final class RunCommand implements BerthCommand {

  private static final Option DRY_RUN = Option.flag("--dry-run", "Print the plan (group order, every edge with its"
      + " flags, the tasks that can never fit this host or the --gpus) and start nothing.");

  private static final Option FRESH =
      Option.flag("--fresh", "Start over: move an earlier run in the same workdir aside first.");

  private static final Option ALLOW_NONEMPTY = Option.flag("--workdir-allow-nonempty", "Start a first run in a"
      + " workdir that already holds other files, writing .berth, task folders and reports among them; --fresh never"
      + " moves such a folder aside.");

  private static final Option NO_JOURNAL =
      Option.flag("--no-journal", "Keep no journal: a little faster, but the run cannot be resumed.");

  private static final Option ALLOW_CHANGED = Option.value("--allow-changed", "stored|new",
      "When resuming a run whose spec changed: go on with the spec it started with (stored), or"
          + " apply the changes (new: tasks keep their history by id, finished ones do not run again).");

  private static final Option GPUS = Option.value("--gpus", "WHICH",
      "GPUs to use: auto (NVML, then nvidia-smi, then none), none, indices such as 0,2, or"
          + " simulated devices such as sim:2x80GiB. Overrides the spec's gpus.");

  private static final Option EXECUTOR = Option.value("--executor", "local|slurm",
      "Where tasks run: local processes, or Slurm batch jobs. Overrides the spec's executor.");

  @Override
  public CommandSyntax syntax() {
    CommandSyntax.Builder syntax = CommandSyntax.describedAs(
        "Run every task of a spec within the machine's limits and write report.json.");
    SpecOptions.declare(syntax);
    syntax.options(DRY_RUN, CommonArgs.NO_PROGRESS, FRESH, ALLOW_NONEMPTY, NO_JOURNAL, ALLOW_CHANGED, GPUS, EXECUTOR);
    OnExitOption.declare(syntax);
    HostLedgerOption.declare(syntax);
    ServeOption.declare(syntax);
    return syntax.build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws InterruptedException, IOException {
    String executor = args.value(EXECUTOR);
    OnExitOption onExit = new OnExitOption(args);
    HostLedgerOption hostLedger = new HostLedgerOption(args);
    ServeOption serve = new ServeOption(args);
    if (!CommonArgs.choicesValid(args, err, EXECUTOR, OnExitOption.ON_EXIT, HostLedgerOption.HOST_LEDGER)
        || !serve.valid(err, hostLedger.shared())) {
      return ExitCodes.BAD_INPUT;
    }
    SpecOptions specOptions = new SpecOptions(args);
    if (executor != null) {
      specOptions.overrides.add("scheduler.executor=" + executor);
    }
    Optional<RunSpec> loaded = specOptions.loadOrReport(err);
    if (loaded.isEmpty()) {
      return ExitCodes.BAD_INPUT;
    }
    RunSpec spec = loaded.get();
    if (!CommonArgs.choicesValid(args, err, ALLOW_CHANGED)) {
      return ExitCodes.BAD_INPUT;
    }
    String allowChangedText = args.value(ALLOW_CHANGED);
    SpecChange allowChanged = allowChangedText == null ? SpecChange.REFUSE
        : SpecChange.valueOf(allowChangedText.toUpperCase(Locale.ROOT));
    String gpus = args.value(GPUS);
    if (gpus != null) {
      try {
        DeviceSelection.parse(gpus);
      } catch (IllegalArgumentException e) {
        err.println("berth: --gpus: " + e.getMessage());
        return ExitCodes.BAD_INPUT;
      }
      spec = spec.withGpus(gpus);
    }
    PrintStream stream = new PrintStream(new WriterOutputStream(out), true);
    Path runDir = LocalSession.runDir(Path.of(spec.workdir()));
    if (args.flag(DRY_RUN)) {
      DryRun.print(spec, runDir, stream);
      return ExitCodes.OK;
    }
    Optional<DashboardServer> dashboard = startDashboard(serve, err);
    try {
      return new LocalRun(stream, err, !args.flag(CommonArgs.NO_PROGRESS))
          .adjust(onExit.adjust())
          .hostLedger(hostLedger.shared())
          .specFile(specOptions.spec)
          .allowNonEmptyWorkdir(args.flag(ALLOW_NONEMPTY))
          .execute(spec, runDir, allowChanged, args.flag(FRESH), !args.flag(NO_JOURNAL));
    } finally {
      dashboard.ifPresent(ServeOption::stop);
    }
  }

  private static Optional<DashboardServer> startDashboard(ServeOption serve, PrintWriter err) {
    try {
      return serve.start(err);
    } catch (Exception e) {
      err.println("berth: --serve: cannot serve the dashboard: " + e.getMessage());
      return Optional.empty();
    }
  }
}
