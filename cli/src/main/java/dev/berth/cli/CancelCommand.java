package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.cli.args.Parameter;
import dev.berth.core.model.TaskPattern;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.session.ClusterJobs;
import dev.berth.session.JournalView;
import dev.berth.session.LeftJobs;
import dev.berth.session.LiveRuns;
import dev.berth.session.SessionException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code berth cancel WORKDIR [TASK...]}: asks a live run to cancel tasks, or the whole run; {@code
 * berth cancel ID...} cancels tasks of your queue ({@code berth submit}) by their ids.
 */
final class CancelCommand implements BerthCommand {

  private static final String DEFAULT_REASON = "cancelled by berth cancel";

  private static final Parameter TASKS = Parameter.rest("TASK", "Task ids, globs or group:NAME.");

  private static final Option REASON = Option.value("--reason", "TEXT", "Why, shown in the report.");

  private final Map<String, String> env;

  /** The command on this process's environment. */
  CancelCommand() {
    this(System.getenv());
  }

  /** The command on another environment ({@code HOME}, for queue ids), for tests. */
  CancelCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("Cancel tasks of a live run (by id, glob such as 'train-*', or group:NAME),"
        + " or the whole run when none are named. Tasks that can no longer run because of them are cancelled too."
        + " Ids alone (berth cancel 3 4) name tasks of your queue (berth submit).")
        .parameter(CommonArgs.WORKDIR).parameter(TASKS).options(REASON).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws IOException {
    Path workdir = args.path(CommonArgs.WORKDIR);
    List<String> tasks = args.values(TASKS);
    String reason = args.value(REASON);
    Optional<List<String>> ids = QueueFolder.ids(workdir.toString(), tasks);
    if (ids.isPresent()) {
      return cancelQueued(QueueFolder.of(env), ids.get(), reason != null ? reason : DEFAULT_REASON, out, err);
    }
    if (!Files.isDirectory(workdir)) {
      err.println("berth: " + workdir + ": no such run workdir");
      return ExitCodes.BAD_INPUT;
    }
    Optional<String> unknown = matchingNone(workdir, tasks);
    if (unknown.isPresent()) {
      err.println("berth: " + workdir + ": " + unknown.get() + "; nothing was cancelled");
      return ExitCodes.BAD_INPUT;
    }
    Optional<String> holder = LiveRuns.holder(workdir);
    if (holder.isEmpty()) {
      return cancelLeftJobs(workdir, tasks, reason, out, err);
    }
    String why = reason != null ? reason : DEFAULT_REASON;
    LiveRuns.cancel(workdir, tasks, why);
    out.println(tasks.isEmpty()
        ? "asked the run in " + workdir + " (" + holder.get() + ") to cancel everything"
        : "asked the run in " + workdir + " (" + holder.get() + ") to cancel " + String.join(", ", tasks));
    return ExitCodes.OK;
  }

  /**
   * Cancels tasks of the user's queue: a request its run acts on as it starts or at once; a queue
   * that is not running is started for it, and resumes before it reads the request.
   */
  private int cancelQueued(QueueFolder queue, List<String> ids, String reason, PrintWriter out, PrintWriter err)
      throws IOException {
    for (String id : ids) {
      if (queue.submission(id).isEmpty()) {
        err.println("berth: cancel: no task " + id + " in your queue (" + queue.dir + "); nothing was cancelled");
        return ExitCodes.BAD_INPUT;
      }
    }
    queue.locked(() -> {
      LiveRuns.cancel(queue.runDir(), ids, reason);
      queue.ensureRunning(env);
      return null;
    });
    out.println("asked your queue to cancel " + String.join(", ", ids));
    return ExitCodes.OK;
  }

  /**
   * Why one of the selectors names no task of the run its journal holds (live or ended), as {@code
   * berth retry} says it; empty when each names a task, and when the journal cannot be read (a run
   * that keeps none), for the run to decide.
   */
  private static Optional<String> matchingNone(Path workdir, List<String> tasks) {
    if (tasks.isEmpty()) {
      return Optional.empty();
    }
    JournalView view;
    try {
      view = JournalView.read(workdir);
    } catch (SessionException e) {
      return Optional.empty();
    }
    List<TaskSpec> specs = view.state().tasks().stream().map(TaskRecord::spec).toList();
    return TaskPattern.matchingNone(tasks, specs)
        .map(s -> "no task of run " + view.state().spec().name() + " matches " + s);
  }

  /**
   * With no Berth running the run, jobs it left on Slurm may still run: they are cancelled with
   * scancel, and the next {@code berth resume} records how they ended.
   */
  private static int cancelLeftJobs(Path workdir, List<String> tasks, String reason, PrintWriter out,
      PrintWriter err) throws IOException {
    String none = "berth: " + workdir + ": no run is live there (nothing holds " + LiveRuns.lockFile(workdir) + ")";
    JournalView view;
    try {
      view = JournalView.read(workdir);
    } catch (SessionException e) {
      err.println(none);
      return ExitCodes.BAD_INPUT;
    }
    if (!view.state().spec().config().onCluster()) {
      err.println(none);
      return ExitCodes.BAD_INPUT;
    }
    Optional<String> allocation = ClusterJobs.recorded(view.state(), workdir).allocation();
    if (allocation.isPresent()) {
      // The Berth inside the allocation watches the same request folder as a local run would.
      LiveRuns.cancel(workdir, tasks, reason != null ? reason : DEFAULT_REASON);
      out.println("asked the Berth inside allocation job " + allocation.get() + " to cancel "
          + (tasks.isEmpty() ? "everything" : String.join(", ", tasks)));
      return ExitCodes.OK;
    }
    List<List<String>> waves = LeftJobs.matching(view.state(), workdir, tasks);
    List<String> jobs = waves.stream().flatMap(List::stream).toList();
    if (jobs.isEmpty()) {
      out.println("no run is live in " + workdir + " and none of its Slurm jobs is running");
      return ExitCodes.OK;
    }
    try {
      LeftJobs.cancel(waves);
    } catch (IOException e) {
      err.println("berth: scancel failed: " + e.getMessage());
      return ExitCodes.INTERNAL;
    }
    out.println("no run is live in " + workdir + "; cancelled its Slurm jobs "
        + String.join(", ", jobs) + " (berth resume " + workdir + " records how they ended)");
    return ExitCodes.OK;
  }
}
