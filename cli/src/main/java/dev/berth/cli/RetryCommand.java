package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.cli.args.Parameter;
import dev.berth.core.scheduling.RetrySelection;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * {@code berth retry WORKDIR [TASK|GLOB|group:NAME ...] [--failed] [--cancelled]}: reopens a run
 * that ended (failed, cancelled, interrupted) and runs the chosen tasks again, with the tasks that
 * became unreachable through them; successes are kept, attempt numbers count on, and each retried
 * task has its {@code retries} budget afresh.
 */
final class RetryCommand implements BerthCommand {

  private static final Parameter TASKS =
      Parameter.rest("TASK", "Task ids, globs such as 'train-*', or group:NAME.");

  private static final Option FAILED = Option.flag("--failed", "Only tasks that failed or timed out.");

  private static final Option CANCELLED =
      Option.flag("--cancelled", "Only tasks that were cancelled (with --failed: those too).");

  @Override
  public CommandSyntax syntax() {
    CommandSyntax.Builder syntax = CommandSyntax.describedAs("Run tasks of a finished run again: by default every"
        + " task that did not succeed, with the tasks that became unreachable through them. Successes are kept,"
        + " attempt numbers count on, and each retried task gets its retries budget afresh. The reports are"
        + " rebuilt as the run ends.");
    StoredRunOptions.declare(syntax);
    return syntax.parameter(TASKS).options(FAILED, CANCELLED).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws InterruptedException, IOException {
    RetrySelection selection = new RetrySelection(args.values(TASKS), args.flag(FAILED), args.flag(CANCELLED));
    return new StoredRunOptions(args).execute(out, err, run -> run.retry(selection));
  }
}
