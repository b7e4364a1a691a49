package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.session.HostRuns;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.spi.SharedReservationsException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code berth queue [-a]}: the tasks of your queue on this host, as {@code ts} and {@code gqueue}
 * list them (id, state, waited, ran, exit, device, command); with {@code -a} every user's queue the
 * host ledger knows of. {@code --daemon} (hidden) is the queue's process itself, which
 * {@code berth submit} starts.
 */
final class QueueCommand implements BerthCommand {

  private static final Option ALL = Option.flag("--all", "Every user's queue on this host, as the host ledger"
      + " lists them (those whose folders you may read).").alias("-a");

  private static final Option DAEMON = Option.flag("--daemon", "Run as the queue's process.").hidden();

  private final Map<String, String> env;

  /** A queue to list: whose it is, its folder, and the host ledger's entry for it, null for your own. */
  private record Listed(String user, QueueFolder folder, RunEntry entry) {}

  /** The command on this process's environment. */
  QueueCommand() {
    this(System.getenv());
  }

  /** The command on another environment ({@code HOME}, {@code BERTH_HOST_DIR}), for tests. */
  QueueCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("List the tasks of your queue on this host (berth submit): id, state, how long"
        + " each waited and ran, its exit code, its device and its command; -a lists every user's.")
        .options(ALL, DAEMON).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
    QueueFolder mine = QueueFolder.of(env);
    if (args.flag(DAEMON)) {
      return QueueDaemon.run(mine, new PrintStream(new WriterOutputStream(out), true));
    }
    Instant now = Instant.now();
    boolean all = args.flag(ALL);
    List<Listed> queues = new ArrayList<>(List.of(new Listed(System.getProperty("user.name", "you"), mine, null)));
    if (all) {
      try {
        Set<String> seen = new HashSet<>(); // the ledger lists a queue once per process it had, ended ones too
        for (RunEntry r : HostRuns.read(HostRuns.folder(env::get), true, now)) {
          Path queueDir = Path.of(r.workdir()).getParent();
          if (r.name().equals(QueueFolder.RUN_NAME) && queueDir != null && !queueDir.equals(mine.dir)
              && seen.add(r.user() + " (" + r.workdir() + ")")) {
            queues.add(new Listed(r.user(), QueueFolder.at(queueDir), r));
          }
        }
      } catch (SharedReservationsException | IllegalArgumentException e) {
        err.println("berth: " + e.getMessage());
        return ExitCodes.BAD_INPUT;
      }
    }
    List<String[]> rows = new ArrayList<>();
    List<Optional<String>> whys = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    for (Listed q : queues) {
      try {
        for (QueueView.Row row : QueueView.read(q.folder(), now)) {
          rows.add(row(row, all ? q.user() : null));
          whys.add(Optional.ofNullable(row.why()).filter(why -> !row.state().equals("succeeded")));
        }
      } catch (IOException e) {
        RunEntry r = q.entry();
        if (r == null) {
          err.println("berth: your queue cannot be read: " + e.getMessage());
          return ExitCodes.INTERNAL;
        }
        // another user's queue folder is theirs alone (it holds their tasks' environments): the ledger says how it goes
        unreadable.add(r.user() + "'s queue (pid " + r.pid() + "): " + r.progress().running() + " running, "
            + r.progress().waiting() + " waiting, " + r.progress().done() + "/" + r.progress().total()
            + " done; its tasks are shown to " + r.user() + " only");
      }
    }
    unreadable.forEach(out::println);
    if (rows.isEmpty()) {
      out.println("no task in your queue" + (all ? " nor in any other on this host" : "")
          + "; berth submit -- COMMAND queues one");
      return ExitCodes.OK;
    }
    rows.add(0, header(all));
    whys.add(0, Optional.empty());
    out.print(Columns.render(rows, whys));
    out.flush();
    return ExitCodes.OK;
  }

  private static String[] header(boolean all) {
    List<String> h = new ArrayList<>(List.of("ID", "STATE", "WAITED", "RAN", "EXIT", "DEVICE", "COMMAND"));
    if (all) {
      h.add(0, "USER");
    }
    return h.toArray(String[]::new);
  }

  private static String[] row(QueueView.Row r, String user) {
    Submission s = r.submission();
    String command = (s.name() != null ? "[" + s.name() + "] " : "") + String.join(" ", s.command());
    List<String> cells = new ArrayList<>(List.of(Integer.toString(s.id()), r.state(), QueueView.duration(r.waited()),
        QueueView.duration(r.ran()), r.exitCode() == null ? "-" : r.exitCode().toString(), r.device(), command));
    if (user != null) {
      cells.add(0, user);
    }
    return cells.toArray(String[]::new);
  }
}
