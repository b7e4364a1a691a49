package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.cli.args.Parameter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchService;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code berth logs ID [-f]}: what a task of your queue wrote, its standard output on standard output
 * and its standard error on standard error (of its latest attempt); with {@code -f}, followed until
 * the task ends, as {@code tail -f} and {@code ts -t} do.
 */
final class LogsCommand implements BerthCommand {

  private static final Parameter ID = Parameter.required("ID", "A queue id, as berth submit printed it.");

  private static final Option FOLLOW = Option.flag("--follow", "Follow the output until the task ends.").alias("-f");

  private static final long CHECK_MILLIS = 1000;

  private final Map<String, String> env;

  /** The command on this process's environment. */
  LogsCommand() {
    this(System.getenv());
  }

  /** The command on another environment, for tests. */
  LogsCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("Show what a task of your queue wrote (stdout, then stderr on stderr); -f"
        + " follows it until the task ends.").parameter(ID).options(FOLLOW).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
    QueueFolder queue = QueueFolder.of(env);
    String text = args.value(ID);
    Optional<Submission> submission = queue.submission(text);
    if (submission.isEmpty()) {
      err.println("berth: logs: no task " + text + " in your queue (" + queue.dir + ")");
      return ExitCodes.BAD_INPUT;
    }
    int id = submission.get().id();
    Path dir = queue.taskDir(id);
    Tail stdout = new Tail(dir.resolve("stdout.log"), new WriterOutputStream(out));
    Tail stderr = new Tail(dir.resolve("stderr.log"), new WriterOutputStream(err));
    if (!args.flag(FOLLOW)) {
      if (!Files.isDirectory(dir)) {
        err.println("berth: logs: task " + id + " has not started yet (berth logs -f " + id + " waits for it)");
        return ExitCodes.OK;
      }
      stdout.copy();
      stderr.copy();
      return ExitCodes.OK;
    }
    try (WatchService watch = queue.dir.getFileSystem().newWatchService()) {
      while (true) {
        // read before the copy: nothing written after it is missed
        boolean ended = QueueView.read(queue, List.of(submission.get()), Instant.now()).get(0).ended();
        stdout.copy();
        stderr.copy();
        if (ended) {
          return ExitCodes.OK;
        }
        QueueFolder.awaitChange(watch, List.of(dir), CHECK_MILLIS);
      }
    }
  }

  /** Copies what a log file gained since the last look; starts again from its top when it became a new attempt's. */
  private static final class Tail {
    private final Path file;
    private final OutputStream to;
    private long offset;
    private Object key;

    Tail(Path file, OutputStream to) {
      this.file = file;
      this.to = to;
    }

    void copy() throws IOException {
      try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
        Object now = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        if (key != null && !key.equals(now) || c.size() < offset) {
          offset = 0; // a retry's log: stdout.log links to the new attempt's file
          to.write(("--- a new attempt ---\n").getBytes(StandardCharsets.UTF_8));
        }
        key = now;
        ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
        int n;
        while ((n = c.read(buffer, offset)) > 0) {
          to.write(buffer.array(), 0, n);
          offset += n;
          buffer.clear();
        }
        to.flush();
      } catch (NoSuchFileException notYet) {
        // the task has not started: nothing to show yet
      }
    }
  }
}
