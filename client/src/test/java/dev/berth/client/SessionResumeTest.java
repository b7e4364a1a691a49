package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.TaskStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session whose JVM died, or ended without {@code close()}, is resumed by the next
 * {@code Berth.local} on its folder: the handles of its tasks work as handles of new tasks do.
 * The first session runs in a child JVM ({@link ResumableSession}); the resumed one in this JVM.
 */
class SessionResumeTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  private Process child;

  @AfterEach
  void stopTheChild() throws Exception {
    if (child != null && child.isAlive()) {
      child.destroyForcibly();
      child.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  @Test
  void handlesOfTasksResumedAfterTheSessionsJvmWasKilledCompleteWithTheirResultsAndFinishedTasksDoNotRunAgain()
      throws Exception {
    Path workdir = dir.resolve("session");
    Path signals = Files.createDirectories(dir.resolve("signals"));
    try (WatchService watch = watch(signals)) {
      child = startChild(workdir, signals);
      awaitFiles(watch, signals, "slow.started", "retrying.started");
    }
    child.destroyForcibly(); // SIGKILL: the session's JVM dies; its task processes go on, orphaned
    assertThat(child.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

    BerthOptions options = ResumableSession.options(workdir);
    try (Berth berth = Berth.local(options)) {
      assertThat(berth.resumed()).isTrue();
      assertThat(berth.handles()).extracting(TaskHandle::id).containsExactly("quick", "slow", "retrying", "after");
      TaskHandle quick = berth.handle("quick").orElseThrow();
      TaskHandle slow = berth.handle("slow").orElseThrow();
      TaskHandle retrying = berth.handle("retrying").orElseThrow();
      TaskHandle after = berth.handle("after").orElseThrow();
      assertThat(berth.handle("nobody")).isEmpty();

      assertThat(quick.get(WAIT).succeeded()).isTrue();
      assertThat(quick.result()).containsEntry("v", 1);
      assertThat(quick.toCompletableFuture()).isCompleted();
      assertThat(slow.isDone()).isFalse();
      assertThat(slow.status()).isEqualTo(TaskStatus.RUNNING);
      assertThat(after.isDone()).isFalse();
      assertThat(berth.submit(ResumableSession.slow(signals))).as("the program submitting again").isSameAs(slow);

      Files.createFile(signals.resolve("go")); // the adopted processes finish now
      assertThat(slow.toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS).result()).containsEntry("v", 2);
      assertThat(after.get(WAIT).result()).containsEntry("v", 3);
      assertThat(retrying.get(WAIT).result()).containsEntry("v", 4);

      assertThat(retrying.attempts()).extracting(AttemptReport::outcome).containsExactly("FAILED", "SUCCEEDED");
      assertThat(retrying.attempts().get(0).exitCode()).isEqualTo(3);
      assertThat(slow.attempts()).extracting(AttemptReport::outcome).containsExactly("SUCCEEDED");
      assertThat(runs(signals, "quick")).as("quick ran before the kill, and not again").isEqualTo(1);
      assertThat(runs(signals, "slow")).as("slow's process was adopted, not started again").isEqualTo(1);
      assertThat(runs(signals, "retrying")).isEqualTo(2);
      assertThat(runs(signals, "after")).isEqualTo(1);

      TaskHandle late = berth.submit(Tasks.command("late", "sh", "-c", "echo '{\"v\": 5}' > result.json"));
      assertThat(late.get(WAIT).result()).containsEntry("v", 5);
      assertThat(berth.handles()).extracting(TaskHandle::id).endsWith("late");
    }

    assertThatThrownBy(() -> Berth.local(options))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("which finished already (SUCCEEDED")
        .hasMessageContaining("fresh(true)");
    try (Berth fresh = Berth.local(ResumableSession.builder(workdir).fresh(true).build())) {
      assertThat(fresh.resumed()).isFalse();
      assertThat(fresh.handles()).isEmpty();
    }
    try (var siblings = Files.list(dir)) {
      assertThat(siblings.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("session.old-"));
    }
  }

  @Test
  void aSessionWhoseJvmEndedWithoutCloseResumesAndItsStoppedAttemptsRunAgainWithoutUsingARetry() throws Exception {
    Path workdir = dir.resolve("session");
    Path signals = Files.createDirectories(dir.resolve("signals"));
    try (WatchService watch = watch(signals)) {
      child = startChild(workdir, signals);
      awaitFiles(watch, signals, "slow.started", "retrying.started");
    }
    child.getOutputStream().write("exit\n".getBytes(StandardCharsets.UTF_8));
    child.getOutputStream().flush();
    assertThat(child.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).as(Files.readString(dir.resolve("child-stderr.txt"))).isZero();
    Files.createFile(signals.resolve("go"));

    try (Berth berth = Berth.local(ResumableSession.options(workdir))) {
      assertThat(berth.resumed()).isTrue();
      TaskHandle slow = berth.handle("slow").orElseThrow();
      TaskHandle retrying = berth.handle("retrying").orElseThrow();

      assertThat(slow.get(WAIT).result()).containsEntry("v", 2);
      assertThat(retrying.get(WAIT).result()).containsEntry("v", 4);
      assertThat(berth.handle("after").orElseThrow().result()).containsEntry("v", 3);

      assertThat(slow.attempts()).extracting(AttemptReport::outcome).containsExactly("INTERRUPTED", "SUCCEEDED");
      assertThat(retrying.attempts()).extracting(AttemptReport::outcome)
          .containsExactly("FAILED", "INTERRUPTED", "SUCCEEDED");
      assertThat(runs(signals, "quick")).isEqualTo(1);
      assertThat(runs(signals, "slow")).isEqualTo(2);
      assertThat(runs(signals, "retrying")).isEqualTo(3);
    }
  }

  private Process startChild(Path workdir, Path signals) throws IOException {
    return new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
        ResumableSession.class.getName(), workdir.toString(), signals.toString())
        .redirectOutput(dir.resolve("child-stdout.txt").toFile())
        .redirectError(dir.resolve("child-stderr.txt").toFile())
        .start();
  }

  private static WatchService watch(Path folder) throws IOException {
    WatchService watch = FileSystems.getDefault().newWatchService();
    folder.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
    return watch;
  }

  /** Waits, without polling, until every one of the files exists in {@code folder}. */
  private void awaitFiles(WatchService watch, Path folder, String... names) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!List.of(names).stream().allMatch(n -> Files.exists(folder.resolve(n)))) {
      long left = deadline - System.nanoTime();
      WatchKey key = left > 0 ? watch.poll(left, TimeUnit.NANOSECONDS) : null;
      if (key == null) {
        throw new AssertionError("the child session did not start " + List.of(names) + " in " + WAIT + "; its stderr: "
            + Files.readString(dir.resolve("child-stderr.txt")));
      }
      key.pollEvents();
      key.reset();
    }
  }

  private static int runs(Path signals, String task) throws IOException {
    Path file = signals.resolve(task + ".runs");
    return Files.exists(file) ? Files.readAllLines(file).size() : 0;
  }
}
