package dev.berth.os;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Runs commands with {@link ProcessBuilder}: no shell, standard input closed, both outputs read
 * concurrently (so a chatty command never blocks on a full pipe) and kept up to
 * {@value #MAX_OUTPUT_BYTES} bytes each. A command still running at the timeout is killed with its
 * descendants. Thread-safe.
 */
public final class ProcessCommandRunner implements CommandRunner {

  /** The most bytes kept of each output stream; the rest is read and dropped. */
  public static final int MAX_OUTPUT_BYTES = 4 << 20;

  private final Set<String> withheld;

  /** A runner whose commands inherit this process's whole environment. */
  public ProcessCommandRunner() {
    this(Set.of());
  }

  /**
   * A runner whose commands do not inherit the variables named in {@code withheld}, those that hold
   * Berth's own secrets: {@code sbatch --export=ALL} then cannot hand them to a task's job.
   */
  public ProcessCommandRunner(Set<String> withheld) {
    this.withheld = Set.copyOf(withheld);
  }

  @Override
  public Result run(List<String> argv, Duration timeout) throws IOException {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a command needs at least a program name");
    }
    ProcessBuilder builder = new ProcessBuilder(argv);
    builder.environment().keySet().removeAll(withheld);
    Process process = builder.start();
    process.getOutputStream().close();
    Drain out = Drain.start(process.getInputStream(), "berth-cmd-stdout");
    Drain err = Drain.start(process.getErrorStream(), "berth-cmd-stderr");
    boolean finished;
    try {
      finished = process.waitFor(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      kill(process);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for " + argv.get(0));
    }
    if (!finished) {
      kill(process);
    }
    String stdout = out.text();
    String stderr = err.text();
    return finished
        ? new Result(process.exitValue(), stdout, stderr, false)
        : new Result(-1, stdout, stderr, true);
  }

  private static void kill(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Reads one output stream to its end on a daemon thread. */
  private static final class Drain implements Runnable {
    private final InputStream in;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final Thread thread;

    private Drain(InputStream in, String name) {
      this.in = in;
      this.thread = new Thread(this, name);
      this.thread.setDaemon(true);
    }

    static Drain start(InputStream in, String name) {
      Drain drain = new Drain(in, name);
      drain.thread.start();
      return drain;
    }

    @Override
    public void run() {
      byte[] buffer = new byte[8192];
      try (in) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          synchronized (kept) {
            int room = MAX_OUTPUT_BYTES - kept.size();
            kept.write(buffer, 0, Math.max(0, Math.min(room, n)));
          }
        }
      } catch (IOException closed) {
        // the process was killed or closed its end; keep what was read
      }
    }

    /** What was read, after the stream ended (or after 2 s, if a grandchild keeps it open). */
    String text() {
      try {
        thread.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      synchronized (kept) {
        return kept.toString(StandardCharsets.UTF_8);
      }
    }
  }
}
