package dev.berth.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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

  /** Whether the options are usable; when not, says why on {@code err}. */
  boolean valid(PrintWriter err) {
    if (!Files.isDirectory(workdir)) {
      err.println("berth: " + workdir + ": no such run workdir");
      return false;
    }
    return onExit.valid(err) && hostLedger.valid(err);
  }

  /** A local run writing to {@code out} and {@code err}, with these session settings. */
  LocalRun localRun(PrintStream out, PrintWriter err) {
    return new LocalRun(out, err, !noProgress).adjust(onExit.adjust()).hostLedger(hostLedger.shared());
  }
}
