package dev.berth.runtime.exec;

import dev.berth.runtime.contain.Container;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * How {@link LocalProcessExecutor} starts a task process: the argument vector as given, never
 * through a shell; standard input empty, output and error appended to the request's files; in the
 * request's working directory; leading a session of its own; already inside its container when it
 * runs its first instruction. {@link #detect()} picks the native spawner where the C library allows.
 */
interface Spawner {

  /**
   * Starts {@code start}, {@code request}'s command or its supervisor, in {@code container}.
   *
   * @param withheld variables of Berth's own environment that the task does not inherit
   * @throws IOException when the process could not be started
   */
  Spawned spawn(LaunchRequest request, Supervision.Start start, Container container, Set<String> withheld)
      throws IOException;

  /** How processes are started, for people: {@code posix_spawn}. */
  String describe();

  /** Makes every thread waiting in {@link Spawned#waitFor()} give up, now and later: the executor is closed. */
  default void close() {}

  /**
   * The native spawner where the C library has what it needs (glibc 2.34 or later on Linux), else
   * {@link ProcessBuilder}. {@code BERTH_SPAWN=process-builder} asks for the latter.
   */
  static Spawner detect() {
    if (!"process-builder".equals(System.getenv("BERTH_SPAWN"))) {
      java.util.Optional<Spawner> spawner = NativeSpawner.available();
      if (spawner.isPresent()) {
        return spawner.get();
      }
    }
    return new JdkSpawner();
  }

  /** How {@link #detect()} would start processes, for people ({@code berth devices}); makes no spawner. */
  static String describeAvailable() {
    return !"process-builder".equals(System.getenv("BERTH_SPAWN")) && NativeSpawner.supported()
        ? "posix_spawn" : new JdkSpawner().describe();
  }

  /** The variables a task gets: Berth's own less {@code withheld}, then the request's, then the container's. */
  static Map<String, String> environment(LaunchRequest request, Container container, Set<String> withheld) {
    Map<String, String> env = new LinkedHashMap<>(System.getenv());
    env.keySet().removeAll(withheld);
    env.putAll(request.env());
    env.putAll(container.environment());
    return env;
  }
}
