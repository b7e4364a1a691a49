package dev.berth.cli;

import dev.berth.runtime.control.CancelRequests;
import dev.berth.runtime.control.RunLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code berth cancel WORKDIR [TASK...]}: asks a live run to cancel tasks, or the whole run. */
@Command(
    name = "cancel",
    description = "Cancel tasks of a live run (by id, glob such as 'train-*', or group:NAME), or the whole"
        + " run when none are named. Tasks that can no longer run because of them are cancelled too.")
final class CancelCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "WORKDIR", description = "The run's workdir.")
  Path workdir;

  @Parameters(index = "1..*", paramLabel = "TASK", description = "Task ids, globs or group:NAME.")
  List<String> tasks = new ArrayList<>();

  @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown in the report.")
  String reason;

  @Spec CommandSpec command;

  @Override
  public Integer call() throws IOException {
    var err = command.commandLine().getErr();
    if (!Files.isDirectory(workdir)) {
      err.println("berth: " + workdir + ": no such run workdir");
      return ExitCodes.BAD_INPUT;
    }
    Optional<String> holder = RunLock.holder(workdir);
    if (holder.isEmpty()) {
      err.println("berth: " + workdir + ": no run is live there (nothing holds " + RunLock.file(workdir) + ")");
      return ExitCodes.BAD_INPUT;
    }
    String why = reason != null ? reason : "cancelled by berth cancel";
    CancelRequests.submit(workdir, new CancelRequests.Request(tasks, why));
    command.commandLine().getOut().println(tasks.isEmpty()
        ? "asked the run in " + workdir + " (" + holder.get() + ") to cancel everything"
        : "asked the run in " + workdir + " (" + holder.get() + ") to cancel " + String.join(", ", tasks));
    return ExitCodes.OK;
  }
}
