package dev.berth.runtime.exec;

import dev.berth.runtime.contain.Container;
import dev.berth.spi.LaunchRequest;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Starts task processes with {@link ProcessBuilder}, where the native spawner cannot: through the
 * {@code setsid} program, where the system has it, so each task leads a session of its own, and
 * through the container's joining command. Exits are seen by the JDK's reaper.
 */
final class JdkSpawner implements Spawner {

  private static final Optional<String> SETSID = Stream.of("/usr/bin/setsid", "/bin/setsid")
      .filter(p -> Files.isExecutable(Path.of(p))).findFirst();
  private static final File NO_INPUT =
      new File(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows") ? "NUL" : "/dev/null");

  @Override
  public String describe() {
    return SETSID.isPresent() ? "ProcessBuilder through setsid" : "ProcessBuilder";
  }

  @Override
  public Spawned spawn(LaunchRequest request, Supervision.Start start, Container container, Set<String> withheld)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(container.command(inOwnSession(start.argv())))
        .directory(request.workdir().toFile())
        .redirectInput(Redirect.from(NO_INPUT))
        .redirectOutput(Redirect.appendTo(request.stdout().toFile()))
        .redirectError(Redirect.appendTo(request.stderr().toFile()));
    builder.environment().keySet().removeAll(withheld);
    builder.environment().putAll(request.env());
    builder.environment().putAll(container.environment());
    return new JdkSpawned(builder.start());
  }

  /**
   * The argument vector, started through {@code setsid} where the system has it: each task then
   * leads a session of its own, so Ctrl-C in Berth's terminal (or the terminal closing) reaches
   * Berth alone, which cancels the task and its whole tree itself, instead of killing the task's
   * shell and orphaning its background children. {@code setsid} execs the program in place, so the
   * process and its pid stay the task's.
   */
  private static List<String> inOwnSession(List<String> argv) {
    if (SETSID.isEmpty()) {
      return argv;
    }
    List<String> wrapped = new ArrayList<>(argv.size() + 1);
    wrapped.add(SETSID.get());
    wrapped.addAll(argv);
    return wrapped;
  }

  /** A process the JDK started and reaps. */
  private record JdkSpawned(Process process) implements Spawned {

    @Override
    public long pid() {
      try {
        return process.pid();
      } catch (UnsupportedOperationException e) {
        return -1;
      }
    }

    @Override
    public boolean isAlive() {
      return process.isAlive();
    }

    @Override
    public Optional<ProcessHandle> handle() {
      return Optional.of(process.toHandle());
    }

    @Override
    public int waitFor() throws InterruptedException {
      return process.waitFor();
    }
  }
}
