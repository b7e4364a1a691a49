package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.cli.args.Parameter;
import dev.berth.core.scheduling.RetrySelection;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
        + " rebuilt as the run ends. Ids alone (berth retry 3) queue tasks of your queue (berth submit) again,"
        + " each under a new id it prints, with the same command, folder, environment and options.");
    StoredRunOptions.declare(syntax);
    return syntax.parameter(TASKS).options(FAILED, CANCELLED).build();
  }

  private final Map<String, String> env;

  /** The command on this process's environment. */
  RetryCommand() {
    this(System.getenv());
  }

  /** The command on another environment ({@code HOME}, for queue ids), for tests. */
  RetryCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws InterruptedException, IOException {
    Optional<List<String>> ids = QueueFolder.ids(args.value(CommonArgs.WORKDIR), args.values(TASKS));
    if (ids.isPresent()) {
      return retryQueued(QueueFolder.of(env), ids.get(), out, err);
    }
    RetrySelection selection = new RetrySelection(args.values(TASKS), args.flag(FAILED), args.flag(CANCELLED));
    return new StoredRunOptions(args).execute(out, err, run -> run.retry(selection));
  }

  /** Queues each task again under a new id, printed one a line, as berth submit does. */
  private int retryQueued(QueueFolder queue, List<String> ids, PrintWriter out, PrintWriter err) throws IOException {
    List<Submission> again = new ArrayList<>();
    for (String id : ids) {
      Optional<Submission> s = queue.submission(id);
      if (s.isEmpty()) {
        err.println("berth: retry: no task " + id + " in your queue (" + queue.dir + "); nothing was queued");
        return ExitCodes.BAD_INPUT;
      }
      again.add(s.get());
    }
    for (Submission s : again) {
      int code = SubmitCommand.queue(queue, env, id -> s.again(id, Instant.now()), out, err);
      if (code != ExitCodes.OK) {
        return code;
      }
    }
    return ExitCodes.OK;
  }
}
