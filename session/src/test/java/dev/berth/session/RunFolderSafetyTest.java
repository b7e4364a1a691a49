package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeGpuProbe;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.TaskSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's folder is never started over silently: a journal gone while the run's files are there is
 * refused, a fresh start moves aside only a run's folder, a first run among the user's files starts
 * only when allowed, and a workdir that is the root, the home folder or the spec's own folder is refused.
 */
class RunFolderSafetyTest {

  @TempDir Path dir;

  private Path workdir() {
    return dir.resolve("run");
  }

  private RunSpec spec() {
    return TaskSpecs.run("safe").workdir(workdir().toString())
        .group("g", TaskSpecs.task("a").memoryMiB(16).build(), TaskSpecs.task("b").memoryMiB(16).build())
        .build();
  }

  private SessionOptions.Builder options(FakeExecutor executor, Seen seen) {
    return SessionOptions.builder(workdir()).spec(spec()).clock(new FakeClock())
        .hostProbe(new FakeHostProbe().cpus(16)).gpuProbe(new FakeGpuProbe()).executor(executor).listener(seen)
        .writeReports(false);
  }

  /** Runs the spec to its end: both tasks succeed, and their folders hold their logs. */
  private void finishedRun() throws Exception {
    FakeExecutor executor = new FakeExecutor();
    Seen seen = new Seen();
    try (LocalSession session = LocalSession.open(options(executor, seen).build())) {
      session.start(failure -> { });
      seen.awaitLaunches("b", 1);
      executor.exit(TaskId.of("a"), 0);
      executor.exit(TaskId.of("b"), 0);
      assertThat(seen.awaitFinished().status()).isEqualTo(RunStatus.SUCCEEDED);
    }
    for (String task : new String[] {"a", "b"}) {
      Files.createDirectories(workdir().resolve("g").resolve(task));
      Files.writeString(workdir().resolve("g").resolve(task).resolve("stdout.log"), "done\n");
    }
  }

  @Test
  void aMissingJournalBesideTheRunsFilesIsRefusedAndNothingRuns() throws Exception {
    finishedRun();
    Files.delete(JournalView.file(workdir()));

    FakeExecutor again = new FakeExecutor();
    assertThatThrownBy(() -> LocalSession.open(options(again, new Seen()).build()))
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("holds an earlier run (report.json")
        .hasMessageContaining("2 task folders")
        .hasMessageContaining("journal.db is missing")
        .hasMessageNotContaining("\n")
        .matches(e -> ((SessionException) e).reason() == SessionException.Reason.JOURNAL_LOST);
    assertThat(JournalView.file(workdir())).doesNotExist();
  }

  @Test
  void anEmptyJournalBesideTheRunsFilesIsRefusedAndKept() throws Exception {
    finishedRun();
    Files.write(JournalView.file(workdir()), new byte[0]);

    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).build()))
        .hasMessageContaining("journal.db is empty");
    assertThat(JournalView.file(workdir())).isEmptyFile();
  }

  @Test
  void anEmptyJournalInAFolderWithoutTracesIsReplacedAsBefore() throws Exception {
    Files.createDirectories(JournalView.file(workdir()).getParent());
    Files.write(JournalView.file(workdir()), new byte[0]);

    try (LocalSession session = LocalSession.open(options(new FakeExecutor(), new Seen()).build())) {
      assertThat(session.resumed()).isFalse();
    }
  }

  @Test
  void aFreshStartRefusesAFolderThatNeverHeldARunAndLeavesItWhereItIs() throws Exception {
    Files.createDirectories(workdir());
    Files.writeString(workdir().resolve("thesis.tex"), "chapter one");

    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).fresh(true).build()))
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("holds files but no Berth run");
    assertThat(workdir().resolve("thesis.tex")).exists();
    try (var siblings = Files.list(dir)) {
      assertThat(siblings).containsExactly(workdir());
    }
  }

  @Test
  void aFirstRunRefusesAFolderThatHoldsFilesButNoRunAndWritesNothingThere() throws Exception {
    Files.createDirectories(workdir());
    Files.writeString(workdir().resolve("thesis.tex"), "chapter one");

    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).build()))
        .isInstanceOf(SessionException.class)
        .hasMessage("the workdir " + workdir() + " holds files but no Berth run, and a run writes its .berth folder,"
            + " task folders and reports there; choose an empty or new workdir, or allow a run among its files")
        .matches(e -> ((SessionException) e).reason() == SessionException.Reason.WORKDIR_NOT_EMPTY);
    try (var entries = Files.list(workdir())) {
      assertThat(entries).containsExactly(workdir().resolve("thesis.tex"));
    }
  }

  @Test
  void aRunAllowedAmongTheUsersFilesGoesOnThereButAFreshStartNeverMovesThemAside() throws Exception {
    Files.createDirectories(workdir());
    Files.writeString(workdir().resolve("thesis.tex"), "chapter one");
    try (LocalSession session = LocalSession.open(options(new FakeExecutor(), new Seen())
        .allowNonEmptyWorkdir(true).build())) {
      assertThat(session.resumed()).isFalse();
    }

    try (LocalSession session = LocalSession.open(options(new FakeExecutor(), new Seen()).build())) {
      assertThat(session.resumed()).isTrue(); // the folder holds a run now: no flag needed to go on
    }
    assertThatThrownBy(() -> LocalSession.open(options(new FakeExecutor(), new Seen()).fresh(true).build()))
        .isInstanceOf(SessionException.class)
        .hasMessageContaining("held files of its own before its first Berth run, so a fresh start does not move it");
    assertThat(workdir().resolve("thesis.tex")).hasContent("chapter one");
    try (var siblings = Files.list(dir)) {
      assertThat(siblings).containsExactly(workdir());
    }
  }

  @Test
  void aFolderHoldingOnlyBerthsOwnFolderIsNoOnesFiles() throws Exception {
    Files.createDirectories(workdir().resolve(".berth"));

    try (LocalSession session = LocalSession.open(options(new FakeExecutor(), new Seen()).build())) {
      assertThat(session.resumed()).isFalse();
    }
  }

  @Test
  void aFreshStartMovesAsideAFolderThatHeldARun() throws Exception {
    finishedRun();

    try (LocalSession session = LocalSession.open(options(new FakeExecutor(), new Seen()).fresh(true).build())) {
      assertThat(session.resumed()).isFalse();
    }
    try (var siblings = Files.list(dir)) {
      assertThat(siblings).hasSize(2).anyMatch(p -> p.getFileName().toString().startsWith("run.old-"));
    }
  }

  @Test
  void theRootTheHomeFolderAndTheSpecsFolderAreRefusedAsWorkdirs() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    SessionOptions o = SessionOptions.builder(workdir()).env(name -> name.equals("HOME") ? home.toString() : null)
        .specFile(dir.resolve("specs/run.yaml")).build();

    assertThatThrownBy(() -> RunFolder.refuseUnsafeWorkdir(Path.of("/"), o))
        .hasMessage("the workdir / is the root folder; a run needs a folder of its own, such as berth-out/<name>"
            + " (the default when the spec sets no workdir)");
    assertThatThrownBy(() -> RunFolder.refuseUnsafeWorkdir(home.resolve("x/.."), o))
        .hasMessageContaining("is your home folder");
    assertThatThrownBy(() -> RunFolder.refuseUnsafeWorkdir(dir.resolve("specs"), o))
        .hasMessageContaining("is the folder of the spec file");
    RunFolder.refuseUnsafeWorkdir(dir.resolve("specs/out"), o);
    RunFolder.refuseUnsafeWorkdir(workdir(), o);
  }

  @Test
  void theAccountsOwnHomeIsRefusedWhenHomePointsElsewhere() throws Exception {
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    SessionOptions o = SessionOptions.builder(workdir()).env(name -> name.equals("HOME") ? elsewhere.toString() : null)
        .build();
    // the JVM reads user.home from the password database, whatever HOME says
    Path accountHome = Path.of(System.getProperty("user.home"));

    assertThatThrownBy(() -> RunFolder.refuseUnsafeWorkdir(accountHome, o)).hasMessageContaining("is your home folder");
    assertThatThrownBy(() -> RunFolder.refuseUnsafeWorkdir(elsewhere, o)).hasMessageContaining("is your home folder");
  }
}
