package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Parameter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.WatchService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code berth wait [ID...]}: waits until the named tasks of your queue (every task in it, when none
 * is named) have ended, and exits with the task's exit code: 0 when each succeeded, else the first
 * one's, in id order, that did not (1 for an end without an exit code: cancelled, unreachable,
 * refused). A queue found dead with tasks left is started again, as a submit would.
 */
final class WaitCommand implements BerthCommand {

  private static final Parameter IDS = Parameter.rest("ID", "Queue ids, as berth submit printed them.");

  /** How long a wait goes without news before it checks that the queue still lives. */
  private static final long CHECK_MILLIS = 2000;

  /** How many reads of the queue in a row may fail before the wait gives up. */
  private static final int UNREADABLE_TRIES = 5;

  private final Map<String, String> env;

  /** The command on this process's environment. */
  WaitCommand() {
    this(System.getenv());
  }

  /** The command on another environment, for tests. */
  WaitCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("Wait until tasks of your queue have ended (all of them when none is named)"
        + " and exit with the task's exit code: 0 when each succeeded, else the first failure's.")
        .parameter(IDS).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
    QueueFolder queue = QueueFolder.of(env);
    List<Submission> tasks = new ArrayList<>();
    for (String id : args.values(IDS)) {
      Optional<Submission> s = queue.submission(id);
      if (s.isEmpty()) {
        err.println("berth: wait: no task " + id + " in your queue (" + queue.dir + ")");
        return ExitCodes.BAD_INPUT;
      }
      tasks.add(s.get());
    }
    if (tasks.isEmpty()) {
      tasks.addAll(queue.submissions());
    }
    tasks.sort(Comparator.comparingInt(Submission::id)); // the first failure in id order gives the code
    int unreadable = 0;
    try (WatchService watch = queue.dir.getFileSystem().newWatchService()) {
      while (true) {
        Optional<Integer> code;
        try {
          code = ended(queue, tasks);
          unreadable = 0;
        } catch (IOException e) {
          // a journal caught between two writers' steps reads again at the next change; one that stays so is told
          if (++unreadable >= UNREADABLE_TRIES) {
            throw e;
          }
          code = Optional.empty();
        }
        if (code.isPresent()) {
          return code.get();
        }
        queue.locked(() -> {
          queue.ensureRunning(env); // a queue killed with tasks left: its journal goes on
          return null;
        });
        QueueFolder.awaitChange(watch, List.of(queue.runDir().resolve(".berth"), queue.inbox()), CHECK_MILLIS);
      }
    }
  }

  /** The exit code once every task of {@code tasks} has ended; empty while one has not. */
  private static Optional<Integer> ended(QueueFolder queue, List<Submission> tasks) throws IOException {
    int code = 0;
    for (QueueView.Row row : QueueView.read(queue, tasks, Instant.now())) {
      if (!row.ended()) {
        return Optional.empty();
      }
      if (code == 0) {
        code = row.waitCode();
      }
    }
    return Optional.of(code);
  }
}
