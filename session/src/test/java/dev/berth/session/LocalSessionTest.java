package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.runtime.control.RunLock;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeGpuProbe;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.TaskSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSessionTest {

  @TempDir Path dir;

  private final FakeExecutor executor = new FakeExecutor();
  private final FakeGpuProbe gpus = new FakeGpuProbe();
  private final Seen seen = new Seen();
  private final List<String> said = new ArrayList<>();

  private Path workdir() {
    return dir.resolve("run");
  }

  private RunSpec twoTasks() {
    return TaskSpecs.run("two").workdir(workdir().toString())
        .group("g", TaskSpecs.task("a").memoryMiB(16).build(), TaskSpecs.task("b").memoryMiB(16).build())
        .build();
  }

  private SessionOptions.Builder options(FakeExecutor executor, Seen seen) {
    return SessionOptions.builder(workdir())
        .spec(twoTasks())
        .clock(new FakeClock())
        .hostProbe(new FakeHostProbe().cpus(16))
        .gpuProbe(gpus)
        .executor(executor)
        .listener(seen)
        .say(said::add)
        .warn(said::add);
  }

  @Test
  void aFreshRunIsJournaledRunsToItsEndWritesItsReportsAndReleasesTheFolder() throws Exception {
    try (LocalSession session = LocalSession.open(options(executor, seen).build())) {
      assertThat(session.resumed()).isFalse();
      assertThat(session.inAllocations()).isFalse();
      assertThat(JournalView.file(workdir())).exists();
      assertThat(RunLock.holder(workdir())).isPresent();

      session.start(failure -> said.add("failed: " + failure));
      seen.awaitLaunches("b", 1);
      executor.exit(TaskId.of("a"), 0);
      executor.exit(TaskId.of("b"), 0);

      assertThat(seen.awaitFinished().status()).isEqualTo(RunStatus.SUCCEEDED);
    }
    assertThat(workdir().resolve("report.json")).exists();
    assertThat(workdir().resolve("report.html")).exists();
    assertThat(RunLock.holder(workdir())).isEmpty();
    assertThat(executor.isClosed()).isTrue();
    assertThat(said).isEmpty();
  }

  @Test
  void aJournaledRunLeftUnfinishedResumesAndWhatEndedDoesNotRunAgain() throws Exception {
    LocalSession first = LocalSession.open(options(executor, seen)
        .onJvmExit(SessionOptions.JvmExit.LEAVE_RESUMABLE).build());
    first.start(failure -> said.add("failed: " + failure));
    seen.awaitLaunches("b", 1);
    executor.exit(TaskId.of("a"), 0);
    seen.awaitEnded("a");
    first.jvmExit(); // as if the JVM exited now: nothing more is journaled
    first.close();

    FakeExecutor second = new FakeExecutor();
    Seen again = new Seen();
    try (LocalSession session = LocalSession.open(options(second, again).build())) {
      assertThat(session.resumed()).isTrue();
      assertThat(said).anyMatch(line -> line.startsWith("resuming two ("));
      session.start(failure -> said.add("failed: " + failure));
      again.awaitLaunches("b", 1);
      second.exit(TaskId.of("b"), 0);

      assertThat(again.awaitFinished().status()).isEqualTo(RunStatus.SUCCEEDED);
      assertThat(again.launched()).containsExactly("b");
    }
  }

  @Test
  void aFolderAnotherSessionHoldsIsRefusedUntilThatSessionIsClosed() throws Exception {
    LocalSession first = LocalSession.open(options(executor, seen).build());

    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).build()))
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("in use by another berth run");

    first.close();
    try (LocalSession again = LocalSession.open(options(new FakeExecutor(), new Seen()).build())) {
      assertThat(RunLock.holder(workdir())).isPresent();
    }
  }

  @Test
  void closingTerminatesWhatRunsEndsTheRunInterruptedAndReleasesTheFolderForAResume() throws Exception {
    LocalSession session = LocalSession.open(options(executor, seen).keepOpen(true).build());
    session.start(failure -> said.add("failed: " + failure));
    seen.awaitLaunches("b", 1);

    session.close();

    assertThat(executor.terminations()).extracting(FakeExecutor.Termination::task)
        .containsExactlyInAnyOrder(TaskId.of("a"), TaskId.of("b"));
    assertThat(executor.isClosed()).isTrue();
    assertThat(session.end()).hasValueSatisfying(end -> assertThat(end.report().status()).isEqualTo(RunStatus.INTERRUPTED));
    assertThat(RunLock.holder(workdir())).isEmpty();
    FakeExecutor second = new FakeExecutor();
    try (LocalSession again = LocalSession.open(options(second, new Seen()).keepOpen(true).build())) {
      assertThat(again.resumed()).isTrue();
    }
  }

  @Test
  void anInterruptionEndsTheRunInterruptedAndTheNextSessionRunsTheInterruptedTasksAgain() throws Exception {
    LocalSession first = LocalSession.open(options(executor, seen).build());
    first.start(failure -> said.add("failed: " + failure));
    seen.awaitLaunches("b", 1);
    executor.exit(TaskId.of("a"), 0);
    seen.awaitEnded("a");

    first.interrupt("interrupted by SIGTERM");

    assertThat(seen.awaitFinished().status()).isEqualTo(RunStatus.INTERRUPTED);
    first.close();
    assertThat(JournalView.read(workdir()).report(java.time.Instant.now()).status()).isEqualTo(RunStatus.INTERRUPTED);
    FakeExecutor second = new FakeExecutor();
    Seen again = new Seen();
    try (LocalSession session = LocalSession.open(options(second, again).build())) {
      session.start(failure -> said.add("failed: " + failure));
      again.awaitLaunches("b", 1);
      second.exit(TaskId.of("b"), 0);
      assertThat(again.awaitFinished().status()).isEqualTo(RunStatus.SUCCEEDED);
      assertThat(second.transcript()).containsExactly("launch b#2", "exit b 0");
    }
  }

  @Test
  void aRetryReopensWhatFailedInARunThatEndedAndKeepsItsSuccesses() throws Exception {
    try (LocalSession session = LocalSession.open(options(executor, seen).build())) {
      session.start(failure -> said.add("failed: " + failure));
      seen.awaitLaunches("b", 1);
      executor.exit(TaskId.of("a"), 0);
      executor.exit(TaskId.of("b"), 1);
      assertThat(seen.awaitFinished().status()).isEqualTo(RunStatus.FAILED);
    }

    FakeExecutor second = new FakeExecutor();
    Seen again = new Seen();
    try (LocalSession session = LocalSession.open(options(second, again).spec(null)
        .retry(dev.berth.core.scheduling.RetrySelection.everything()).build())) {
      assertThat(session.resumed()).isTrue();
      session.start(failure -> said.add("failed: " + failure));
      again.awaitLaunches("b", 1);
      second.exit(TaskId.of("b"), 0);
      assertThat(again.awaitFinished().status()).isEqualTo(RunStatus.SUCCEEDED);
      assertThat(second.transcript()).containsExactly("launch b#2", "exit b 0");
    }
    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).spec(null)
        .retry(dev.berth.core.scheduling.RetrySelection.everything()).build()))
        .isInstanceOf(SessionException.class)
        .hasMessageEndingWith("nothing to retry in two: no task ended without success");
    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).spec(null)
        .retry(new dev.berth.core.scheduling.RetrySelection(java.util.List.of("c"), false, false)).build()))
        .isInstanceOf(SessionException.class)
        .hasMessageEndingWith("no task of run two matches c");
    assertThat(RunLock.holder(workdir())).isEmpty();
  }

  @Test
  void closingKillsTheLocalProcessesStillRunning() throws Exception {
    RunSpec sleeper = TaskSpecs.run("sleeper").workdir(workdir().toString())
        .group("g", TaskSpecs.task("sleeps").command("sleep", "60").memoryMiB(8).build()).build();
    LocalSession session = LocalSession.open(SessionOptions.builder(workdir()).spec(sleeper)
        .hostProbe(new FakeHostProbe().cpus(16)).gpuProbe(gpus).listener(seen).keepOpen(true).build());
    session.start(failure -> said.add("failed: " + failure));
    seen.awaitLaunches("sleeps", 1);
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isNotEmpty();

    session.close();

    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(RunLock.holder(workdir())).isEmpty();
  }

  @Test
  void aRunThatFinishedIsRefusedAndItsMissingReportsAreRebuiltFromTheJournal() throws Exception {
    try (LocalSession session = LocalSession.open(options(executor, seen).build())) {
      session.start(failure -> said.add("failed: " + failure));
      seen.awaitLaunches("b", 1);
      executor.exit(TaskId.of("a"), 0);
      executor.exit(TaskId.of("b"), 1);
      seen.awaitFinished();
    }
    Files.delete(workdir().resolve("report.json"));

    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).build()))
        .isInstanceOfSatisfying(RunFinishedException.class, e -> {
          assertThat(e.status()).isEqualTo(RunStatus.FAILED);
          assertThat(e.run()).isEqualTo("two");
        });
    assertThat(workdir().resolve("report.json")).exists();
    assertThat(RunLock.holder(workdir())).isEmpty();
  }

  @Test
  void aRunKilledAfterJournallingItsEndButBeforeWritingItsReportGetsItsReportsRebuiltOverAnEarlierSegments()
      throws Exception {
    try (LocalSession session = LocalSession.open(options(executor, seen).build())) {
      session.start(failure -> said.add("failed: " + failure));
      seen.awaitLaunches("b", 1);
      executor.exit(TaskId.of("a"), 0);
      executor.exit(TaskId.of("b"), 1);
      seen.awaitFinished();
    }
    // What the folder holds when the run's last Berth was killed between the two: the report.json
    // of the segment before, which an interruption ended.
    Path report = workdir().resolve("report.json");
    String ended = Files.readString(report);
    String earlier = ended.replaceFirst("\"status\" : \"FAILED\"", "\"status\" : \"INTERRUPTED\"")
        .replaceFirst("\"finishedAt\" : \"[^\"]*\"", "\"finishedAt\" : \"2020-01-01T00:00:00.000Z\"");
    assertThat(earlier).isNotEqualTo(ended);
    Files.writeString(report, earlier);

    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).build()))
        .isInstanceOfSatisfying(RunFinishedException.class, e -> assertThat(e.status()).isEqualTo(RunStatus.FAILED));
    assertThat(Files.readString(report)).contains("\"status\" : \"FAILED\"").doesNotContain("2020-01-01");
  }

  @Test
  void aSpecThatChangedIsRefusedNamingTheDifferenceUnlessTheStoredOneIsKept() throws Exception {
    LocalSession first = LocalSession.open(options(executor, seen).onJvmExit(SessionOptions.JvmExit.LEAVE_RESUMABLE)
        .build());
    first.start(failure -> said.add("failed: " + failure));
    seen.awaitLaunches("b", 1);
    first.jvmExit();
    first.close();
    RunSpec changed = TaskSpecs.run("two").workdir(workdir().toString())
        .group("g", TaskSpecs.task("a").memoryMiB(32).build(), TaskSpecs.task("b").memoryMiB(16).build())
        .build();

    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).spec(changed).build()))
        .isInstanceOfSatisfying(SessionException.class,
            e -> assertThat(e.reason()).isEqualTo(SessionException.Reason.SPEC_CHANGED))
        .hasMessageContaining("memory");
    try (LocalSession kept = LocalSession.open(options(new FakeExecutor(), new Seen()).spec(changed)
        .specChange(SpecChange.STORED).build())) {
      assertThat(kept.spec().tasks().get(0).resources().memoryBytes()).isEqualTo(16L << 20);
    }
  }
}
