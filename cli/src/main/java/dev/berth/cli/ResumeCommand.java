package dev.berth.cli;

import java.io.IOException;
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
    return stored.execute(command, run -> insideAllocation ? run.insideAllocation() : run);
  }
}
