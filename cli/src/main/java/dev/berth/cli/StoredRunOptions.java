package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.session.LocalSession;
import dev.berth.session.SpecChange;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * What {@code resume} and {@code retry} share: they go on with the run stored in a workdir, with the
 * same session settings as {@code run} has.
 */
final class StoredRunOptions {

  private final Arguments args;
  private final Path workdir;
  private final boolean noProgress;
  private final OnExitOption onExit;
  private final HostLedgerOption hostLedger;

  /** The workdir and session settings given on the command line. */
  StoredRunOptions(Arguments args) {
    this.args = args;
    this.workdir = args.path(CommonArgs.WORKDIR);
    this.noProgress = args.flag(CommonArgs.NO_PROGRESS);
    this.onExit = new OnExitOption(args);
    this.hostLedger = new HostLedgerOption(args);
  }

  /** Declares the workdir parameter and the session options in a command's syntax. */
  static void declare(CommandSyntax.Builder syntax) {
    syntax.parameter(CommonArgs.WORKDIR).options(CommonArgs.NO_PROGRESS);
    OnExitOption.declare(syntax);
    HostLedgerOption.declare(syntax);
  }

  /**
   * Goes on with the stored run: checks the options (exit code 2 with the reason when they are not
   * usable), then runs what {@code prepare} makes of a local run with these session settings.
   */
  int execute(PrintWriter out, PrintWriter err, UnaryOperator<LocalRun> prepare)
      throws InterruptedException, IOException {
    if (!valid(err)) {
      return ExitCodes.BAD_INPUT;
    }
    PrintStream stream = new PrintStream(new WriterOutputStream(out), true);
    LocalRun run = new LocalRun(stream, err, !noProgress).adjust(onExit.adjust()).hostLedger(hostLedger.shared());
    return prepare.apply(run).execute(null, LocalSession.runDir(workdir), SpecChange.REFUSE, false, true);
  }

  private boolean valid(PrintWriter err) {
    if (!Files.isDirectory(workdir)) {
      err.println("berth: " + workdir + ": no such run workdir");
      return false;
    }
    return CommonArgs.choicesValid(args, err, OnExitOption.ON_EXIT, HostLedgerOption.HOST_LEDGER);
  }
}
