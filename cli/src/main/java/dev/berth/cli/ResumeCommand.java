package dev.berth.cli;

import dev.berth.runtime.engine.RunLayout;
import dev.berth.session.SpecChange;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code berth resume WORKDIR}: resumes a run that did not finish, with the spec it started with. */
@Command(name = "resume", description = "Resume a run that did not finish, with the spec it started with.")
final class ResumeCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "WORKDIR", description = "The run's workdir.")
  Path workdir;

  @Option(names = "--no-progress", description = "Plain lines instead of the live progress view.")
  boolean noProgress;

  @Mixin OnExitOption onExit;

  @Mixin HostLedgerOption hostLedger;

  @Option(names = "--inside-allocation", hidden = true,
      description = "Run as the engine inside a Slurm allocation that another Berth asked for.")
  boolean insideAllocation;

  @Spec CommandSpec command;

  @Override
  public Integer call() throws InterruptedException, IOException {
    if (!Files.isDirectory(workdir)) {
      command.commandLine().getErr().println("berth: " + workdir + ": no such run workdir");
      return ExitCodes.BAD_INPUT;
    }
    if (!onExit.valid(command.commandLine().getErr()) || !hostLedger.valid(command.commandLine().getErr())) {
      return ExitCodes.BAD_INPUT;
    }
    PrintStream out = new PrintStream(new WriterOutputStream(command.commandLine().getOut()), true);
    LocalRun run = new LocalRun(out, command.commandLine().getErr(), !noProgress);
    if (insideAllocation) {
      run.insideAllocation();
    }
    return run.adjust(onExit.adjust())
        .hostLedger(hostLedger.shared())
        .execute(null, new RunLayout(workdir), SpecChange.REFUSE, false, true);
  }
}
