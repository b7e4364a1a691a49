package dev.berth.cli;

import dev.berth.core.scheduling.RetrySelection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code berth retry WORKDIR [TASK|GLOB|group:NAME ...] [--failed] [--cancelled]}: reopens a run
 * that ended (failed, cancelled, interrupted) and runs the chosen tasks again, with the tasks that
 * became unreachable through them; successes are kept, attempt numbers count on, and each retried
 * task has its {@code retries} budget afresh.
 */
@Command(name = "retry", description = "Run tasks of a finished run again: by default every task that did not"
    + " succeed, with the tasks that became unreachable through them. Successes are kept, attempt numbers count"
    + " on, and each retried task gets its retries budget afresh. The reports are rebuilt as the run ends.")
final class RetryCommand implements Callable<Integer> {

  @Mixin StoredRunOptions stored;

  @Parameters(index = "1..*", paramLabel = "TASK", description = "Task ids, globs such as 'train-*', or group:NAME.")
  List<String> tasks = new ArrayList<>();

  @Option(names = "--failed", description = "Only tasks that failed or timed out.")
  boolean failed;

  @Option(names = "--cancelled", description = "Only tasks that were cancelled (with --failed: those too).")
  boolean cancelled;

  @Spec CommandSpec command;

  @Override
  public Integer call() throws InterruptedException, IOException {
    return stored.execute(command, run -> run.retry(new RetrySelection(tasks, failed, cancelled)));
  }
}
