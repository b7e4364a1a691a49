package dev.berth.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code berth} command in a JVM of its own, for tests that kill or signal it: its output
 * goes to a log file in the test's folder.
 */
final class BerthProcess {

  final Process process;
  final Path log;

  private BerthProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts {@code berth ARGS...}, logging into a new file in {@code dir}. */
  static BerthProcess start(Path dir, String... args) throws IOException {
    return start(dir, java.util.Map.of(), args);
  }

  /** Starts {@code berth ARGS...} with these environment variables added, logging into a new file in {@code dir}. */
  static BerthProcess start(Path dir, java.util.Map<String, String> env, String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    argv.addAll(List.of(args));
    Path log = dir.resolve("berth-" + System.nanoTime() + ".log");
    ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(env);
    return new BerthProcess(builder.start(), log);
  }

  /** Sends a signal by name ({@code INT}, {@code TERM}, {@code HUP}, {@code KILL}). */
  void signal(String name) throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
  }

  /** Waits up to {@code seconds} for the command to end; its exit code, or -1 when it has not ended. */
  int await(long seconds) throws InterruptedException {
    if (process.waitFor(seconds, TimeUnit.SECONDS)) {
      return process.exitValue();
    }
    threadDump();
    return -1;
  }

  /**
   * Appends the command's thread dump to its output, so that a test that waited for it in vain
   * shows where it stood.
   */
  private void threadDump() {
    Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
    try {
      Process dump = new ProcessBuilder(jstack.toString(), Long.toString(process.pid()))
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      dump.waitFor(30, TimeUnit.SECONDS);
    } catch (IOException e) {
      // no jstack here: the output stays as it was
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** What it printed so far. */
  String output() throws IOException {
    return Files.readString(log);
  }
}
