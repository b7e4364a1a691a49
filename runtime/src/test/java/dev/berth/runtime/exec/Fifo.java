package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A named pipe that test scripts write to. It tells, without polling, when a script is ready (its
 * first line) and when every process holding the pipe open has ended (end of file: the kernel closes
 * a process's files when it dies).
 */
final class Fifo {

  private final Path path;
  private final CompletableFuture<String> firstLine = new CompletableFuture<>();
  private final CompletableFuture<Void> allWritersGone = new CompletableFuture<>();

  private Fifo(Path path) {
    this.path = path;
  }

  /** Makes the pipe and starts reading it on a daemon thread. */
  static Fifo open(Path path) throws Exception {
    Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor(Exits.WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
    Fifo fifo = new Fifo(path);
    Thread reader = new Thread(fifo::read, "fifo-reader");
    reader.setDaemon(true);
    reader.start();
    return fifo;
  }

  Path path() {
    return path;
  }

  /** The first line written, waiting for it. */
  String firstLine() throws Exception {
    return firstLine.get(Exits.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** Waits until no process holds the pipe open for writing. */
  void awaitAllWritersGone() throws Exception {
    allWritersGone.get(Exits.WAIT_SECONDS, TimeUnit.SECONDS);
  }

  private void read() {
    // Opening blocks until a writer opens the other end.
    try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      firstLine.complete(in.readLine());
      while (in.readLine() != null) {
        // drain until the last writer closes
      }
      allWritersGone.complete(null);
    } catch (IOException e) {
      firstLine.completeExceptionally(e);
      allWritersGone.completeExceptionally(e);
    }
  }
}
