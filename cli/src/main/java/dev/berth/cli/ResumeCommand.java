package dev.berth.cli;

import dev.berth.runtime.engine.RunLayout;
import dev.berth.session.SpecChange;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code berth resume WORKDIR}: resumes a run that did not finish, with the spec it started with. */
@Command(name = "resume", description = "Resume a run that did not finish, with the spec it started with.")
final class ResumeCommand implements Callable<Integer> {

  @Mixin StoredRunOptions stored;

  @Option(names = "--inside-allocation", hidden = true,
      description = "Run as the engine inside a Slurm allocation that another Berth asked for.")
  boolean insideAllocation;

  @Spec CommandSpec command;

  @Override
  public Integer call() throws InterruptedException, IOException {
    if (!stored.valid(command.commandLine().getErr())) {
      return ExitCodes.BAD_INPUT;
    }
    PrintStream out = new PrintStream(new WriterOutputStream(command.commandLine().getOut()), true);
    LocalRun run = stored.localRun(out, command.commandLine().getErr());
    if (insideAllocation) {
      run.insideAllocation();
    }
    return run.execute(null, new RunLayout(stored.workdir), SpecChange.REFUSE, false, true);
  }
}
