package dev.berth.cli;

import dev.berth.runtime.engine.RunLayout;
import dev.berth.session.SpecChange;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@code resume} and {@code retry} share: they go on with the run stored in a workdir, with the
 * same session settings as {@code run} has.
 */
final class StoredRunOptions {

  @Parameters(index = "0", paramLabel = "WORKDIR", description = "The run's workdir.")
  Path workdir;

  @Option(names = "--no-progress", description = "Plain lines instead of the live progress view.")
  boolean noProgress;

  @Mixin OnExitOption onExit;

  @Mixin HostLedgerOption hostLedger;

  /**
   * Goes on with the stored run: checks the options (exit code 2 with the reason when they are not
   * usable), then runs what {@code prepare} makes of a local run with these session settings.
   */
  int execute(CommandSpec command, UnaryOperator<LocalRun> prepare) throws InterruptedException, IOException {
    PrintWriter err = command.commandLine().getErr();
    if (!valid(err)) {
      return ExitCodes.BAD_INPUT;
    }
    PrintStream out = new PrintStream(new WriterOutputStream(command.commandLine().getOut()), true);
    LocalRun run = new LocalRun(out, err, !noProgress).adjust(onExit.adjust()).hostLedger(hostLedger.shared());
    return prepare.apply(run).execute(null, new RunLayout(workdir), SpecChange.REFUSE, false, true);
  }

  private boolean valid(PrintWriter err) {
    if (!Files.isDirectory(workdir)) {
      err.println("berth: " + workdir + ": no such run workdir");
      return false;
    }
    return onExit.valid(err) && hostLedger.valid(err);
  }
}
