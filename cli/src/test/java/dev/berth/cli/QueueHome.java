package dev.berth.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A user's home for queue tests: its own {@code HOME} (so no real queue is touched) with
 * {@code ~/.berth/queue.yaml}, a host folder of the test's, and the queue commands run in-process
 * on that environment. {@link #close()} kills the queue processes it started that still live.
 */
final class QueueHome implements AutoCloseable {

  private static final Pattern STARTED = Pattern.compile("queue started \\(pid ([0-9]+)\\)");

  final Path home;
  final Map<String, String> env;
  final QueueFolder queue;

  /** What one command printed, and its exit code. */
  record Ran(int code, String out, String err) {
    String id() {
      return out.strip();
    }
  }

  QueueHome(Path home, Path hostDir, String settings) throws IOException {
    this.home = home;
    Files.createDirectories(home.resolve(".berth"));
    Files.writeString(home.resolve(".berth").resolve("queue.yaml"), settings);
    Map<String, String> e = new HashMap<>(System.getenv());
    e.put("HOME", home.toString());
    e.put("BERTH_HOST_DIR", hostDir.toString());
    this.env = Map.copyOf(e);
    this.queue = QueueFolder.of(env);
  }

  Ran submit(String... args) {
    return run("submit", SubmitCommand::new, args);
  }

  Ran waitFor(String... ids) {
    return run("wait", WaitCommand::new, ids);
  }

  Ran list(String... args) {
    return run("queue", QueueCommand::new, args);
  }

  Ran logs(String... args) {
    return run("logs", LogsCommand::new, args);
  }

  Ran cancel(String... args) {
    return run("cancel", CancelCommand::new, args);
  }

  Ran retry(String... args) {
    return run("retry", RetryCommand::new, args);
  }

  private Ran run(String name, Function<Map<String, String>, BerthCommand> command, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] argv = new String[args.length + 1];
    argv[0] = name;
    System.arraycopy(args, 0, argv, 1, args.length);
    int code = SubcommandRunner.run(name, command.apply(env), argv, 1, new PrintWriter(out, true),
        new PrintWriter(err, true));
    return new Ran(code, out.toString(), err.toString());
  }

  /** The pids of the queue processes started for this home, as the queue's log names them. */
  List<Long> queuePids() throws IOException {
    if (!Files.exists(queue.log())) {
      return List.of();
    }
    Matcher m = STARTED.matcher(Files.readString(queue.log()));
    List<Long> pids = new java.util.ArrayList<>();
    while (m.find()) {
      pids.add(Long.parseLong(m.group(1)));
    }
    return pids;
  }

  /** The queue's output so far, for a failed assertion. */
  String log() throws IOException {
    return Files.exists(queue.log()) ? Files.readString(queue.log()) : "(no queue log)";
  }

  /** Waits until {@code condition} holds, at most {@code limit}; whether it did. */
  static boolean until(BooleanSupplier condition, Duration limit) {
    long end = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        return false;
      }
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
    return true;
  }

  @Override
  public void close() throws IOException {
    for (long pid : queuePids()) {
      ProcessHandle.of(pid).filter(p -> p.info().commandLine().orElse("").contains("--daemon")).ifPresent(p -> {
        p.destroyForcibly();
        p.onExit().join();
      });
    }
  }
}
