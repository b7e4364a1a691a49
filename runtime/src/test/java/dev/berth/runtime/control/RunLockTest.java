package dev.berth.runtime.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLockTest {

  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  @Test
  void noOneHoldsTheLockOfAFolderThatNeverHadARun() throws IOException {
    assertThat(RunLock.holder(dir)).isEmpty();
    assertThat(RunLock.holder(dir.resolve("does-not-exist"))).isEmpty();
  }

  @Test
  void theHolderIsNamedByPidAndStartTime() throws Exception {
    try (RunLock lock = RunLock.acquire(dir, 4242, NOW)) {
      assertThat(RunLock.holder(dir)).contains("pid 4242, started 2026-01-01T00:00:00Z");
    }
    // read only after close: closing any descriptor of the file would drop the holder's POSIX lock
    assertThat(Files.readString(RunLock.file(dir))).isEqualTo("pid 4242, started 2026-01-01T00:00:00Z\n");
    assertThat(RunLock.file(dir)).isEqualTo(dir.resolve(".berth").resolve("lock"));
  }

  @Test
  void aSecondAcquireIsRefusedNamingTheHolder() throws Exception {
    try (RunLock lock = RunLock.acquire(dir, 4242, NOW)) {
      RunLock.LockedException e = catchThrowableOfType(RunLock.LockedException.class,
          () -> RunLock.acquire(dir, 99, NOW));

      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains("is in use by another berth run").contains("pid 4242");
    }
  }

  @Test
  void theLockIsReleasedOnClose() throws Exception {
    RunLock.acquire(dir, 1, NOW).close();

    assertThat(RunLock.holder(dir)).isEmpty();
    try (RunLock again = RunLock.acquire(dir, 2, NOW)) {
      assertThat(RunLock.holder(dir)).get().asString().contains("pid 2");
    }
  }

  @Test
  void aFolderSetAsideTwiceInOneSecondGetsTwoNamesAndKeepsItsFiles() throws Exception {
    Path run = Files.createDirectories(dir.resolve("run"));
    Files.writeString(run.resolve("result.json"), "first");

    Path first = RunLock.setAside(run, 1, NOW).orElseThrow();
    Files.createDirectories(run);
    Files.writeString(run.resolve("result.json"), "second");
    Path second = RunLock.setAside(run, 1, NOW).orElseThrow();

    assertThat(first.getFileName()).hasToString("run.old-20260101T000000Z");
    assertThat(second.getFileName()).hasToString("run.old-20260101T000000Z-2");
    assertThat(first.resolve("result.json")).hasContent("first");
    assertThat(second.resolve("result.json")).hasContent("second");
    assertThat(run).doesNotExist();
    assertThat(RunLock.holder(first)).as("the lock taken to move it is released").isEmpty();
  }

  @Test
  void aFolderALiveRunHoldsIsNotSetAside() throws Exception {
    Path run = Files.createDirectories(dir.resolve("live"));
    try (RunLock lock = RunLock.acquire(run, 4242, NOW)) {
      RunLock.LockedException e = catchThrowableOfType(RunLock.LockedException.class,
          () -> RunLock.setAside(run, 99, NOW));

      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains("pid 4242");
      assertThat(run).isDirectory();
      assertThat(dir.resolve("live.old-20260101T000000Z")).doesNotExist();
    }
  }

  @Test
  void aMissingOrEmptyFolderIsNotSetAside() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));

    assertThat(RunLock.setAside(dir.resolve("missing"), 1, NOW)).isEmpty();
    assertThat(RunLock.setAside(empty, 1, NOW)).isEmpty();
    assertThat(empty).isEmptyDirectory();
  }

  @Test
  void aShorterHolderLineReplacesALongerOneCompletely() throws Exception {
    RunLock.acquire(dir, 123456789, NOW).close();

    RunLock.acquire(dir, 7, NOW).close();

    assertThat(Files.readString(RunLock.file(dir))).isEqualTo("pid 7, started 2026-01-01T00:00:00Z\n");
  }

  @Test
  void takingTheLockDiscardsCancelRequestsLeftForAnEarlierRun() throws Exception {
    Path stale = CancelRequests.submit(dir, new CancelRequests.Request(List.of(), "for the earlier run"));

    try (RunLock lock = RunLock.acquire(dir, 1, NOW)) {
      assertThat(stale).doesNotExist();
      Path fresh = CancelRequests.submit(dir, new CancelRequests.Request(List.of("a"), "for this run"));
      assertThat(fresh).as("requests written while the lock is held stay").exists();
    }
  }

  // ---- across processes ----

  /** Run in a second JVM: tries to take the lock of the folder in args[0] and says what happened. */
  static final class OtherProcess {
    public static void main(String[] args) throws Exception {
      Path runDir = Path.of(args[0]);
      System.out.println("holder=" + RunLock.holder(runDir).orElse("none"));
      try (RunLock lock = RunLock.acquire(runDir, ProcessHandle.current().pid(), Instant.now())) {
        System.out.println("acquired");
      } catch (RunLock.LockedException e) {
        System.out.println("refused: " + e.getMessage());
      }
    }
  }

  private String inOtherProcess() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
        OtherProcess.class.getName(), dir.toString()))
        .redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the other JVM ended").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  @Test
  void anotherProcessIsRefusedWhileThisOneHoldsTheLockAndGetsItAfterwards() throws Exception {
    long me = ProcessHandle.current().pid();
    try (RunLock lock = RunLock.acquire(dir, me, NOW)) {
      String out = inOtherProcess();
      assertThat(out).contains("holder=pid " + me).contains("refused: ").contains("pid " + me);
    }

    assertThat(inOtherProcess()).contains("holder=none").contains("acquired");
  }

  @Test
  void askingForTheHolderInTheHoldingProcessKeepsTheLock() throws Exception {
    long me = ProcessHandle.current().pid();
    try (RunLock lock = RunLock.acquire(dir, me, NOW)) {
      assertThat(RunLock.holder(dir)).isPresent();

      assertThat(inOtherProcess()).as("still held after holder() in the holding JVM").contains("refused: ");
    }
  }

  @Test
  void aRefusedSecondAcquireInTheHoldingProcessKeepsTheLock() throws Exception {
    long me = ProcessHandle.current().pid();
    try (RunLock lock = RunLock.acquire(dir, me, NOW)) {
      catchThrowableOfType(RunLock.LockedException.class, () -> RunLock.acquire(dir, me, NOW));

      assertThat(inOtherProcess()).as("still held after a refused acquire in the holding JVM").contains("refused: ");
    }
  }
}
