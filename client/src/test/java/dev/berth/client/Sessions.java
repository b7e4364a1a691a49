package dev.berth.client;

import dev.berth.runtime.engine.RunListener;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Session options for tests. */
final class Sessions {

  private Sessions() {}

  /** Real processes, no GPUs, limits that a busy build machine cannot block: for end-to-end tests. */
  static BerthOptions.Builder real(Path dir, RunListener listener) {
    return BerthOptions.builder()
        .name("test")
        .workdir(dir.resolve("session"))
        .gpus("none")
        .set("scheduler.default-memory", "16MiB")
        .set("remain-limit.memory", "0")
        .set("utilization-limit.cpu", 1.0)
        .set("utilization-limit.memory", 1.0)
        .listener(listener);
  }

  /** Fake processes, a fake host with 16 cores and a clock that never moves: for exact tests. */
  static BerthOptions.Builder fake(Path dir, FakeExecutor executor, RunListener listener) {
    return BerthOptions.builder()
        .name("fake")
        .workdir(dir.resolve("session"))
        .gpus("none")
        .set("scheduler.default-memory", "16MiB")
        .executor(executor)
        .hostProbe(new FakeHostProbe().cpus(16))
        .clock(new FakeClock())
        .listener(listener);
  }

  /**
   * The names of live threads that Berth started, e.g. {@code berth-timers}, after giving each up to
   * 30 s to end: a thread told to stop (a closed socket's acceptor, say) ends a moment later, which
   * on a loaded machine can be after the close returned.
   */
  static List<String> berthThreads() throws InterruptedException {
    List<Thread> berth = Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("berth-"))
        .toList();
    for (Thread t : berth) {
      t.join(30_000);
    }
    return berth.stream().filter(Thread::isAlive).map(Thread::getName).sorted().toList();
  }

  /** This JVM's live child processes, described. */
  static List<String> childProcesses() {
    return ProcessHandle.current().descendants()
        .filter(ProcessHandle::isAlive)
        .map(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
        .toList();
  }

  /** {@code name=value} pairs, for readable assertions on result maps. */
  static String describe(Map<String, ?> m) {
    return m.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
  }
}
