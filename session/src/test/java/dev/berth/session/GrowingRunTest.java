package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.Revision;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RetrySelection;
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

/** A run that finished goes on when its spec gains tasks: only the new ones run, and the change is recorded. */
class GrowingRunTest {

  @TempDir Path dir;

  private final List<String> said = new ArrayList<>();

  private Path workdir() {
    return dir.resolve("run");
  }

  private RunSpec run(long memoryMiBOfA, String... ids) {
    List<TaskSpec> tasks = new ArrayList<>();
    tasks.add(TaskSpecs.task("a").memoryMiB(memoryMiBOfA).build());
    for (String id : ids) {
      tasks.add(TaskSpecs.task(id).memoryMiB(16).build());
    }
    return TaskSpecs.run("grows").workdir(workdir().toString()).group("g", tasks).build();
  }

  private SessionOptions.Builder options(RunSpec spec, FakeExecutor executor, Seen seen) {
    return SessionOptions.builder(workdir()).spec(spec).clock(new FakeClock())
        .hostProbe(new FakeHostProbe().cpus(16)).gpuProbe(new FakeGpuProbe()).executor(executor).listener(seen)
        .say(said::add).warn(said::add);
  }

  /** Runs {@code spec} in the folder until each of {@code ids} launched and exited 0; returns what launched. */
  private List<String> runToTheEnd(SessionOptions.Builder options, FakeExecutor executor, Seen seen, String... ids)
      throws Exception {
    try (LocalSession session = LocalSession.open(options.build())) {
      session.start(failure -> said.add("failed: " + failure));
      for (String id : ids) {
        seen.awaitLaunches(id, 1);
        executor.exit(TaskId.of(id), 0);
      }
      assertThat(seen.awaitFinished().status()).isEqualTo(RunStatus.SUCCEEDED);
    }
    return seen.launched();
  }

  private void finishedWith(RunSpec spec, String... ids) throws Exception {
    FakeExecutor executor = new FakeExecutor();
    Seen seen = new Seen();
    runToTheEnd(options(spec, executor, seen), executor, seen, ids);
  }

  @Test
  void aFinishedRunGivenASpecWithMoreTasksRunsOnlyTheNewOnesAndRecordsTheRevision() throws Exception {
    finishedWith(run(16, "b"), "a", "b");
    FakeExecutor executor = new FakeExecutor();
    Seen seen = new Seen();

    List<String> launched = runToTheEnd(options(run(16, "b", "c", "d"), executor, seen), executor, seen, "c", "d");

    assertThat(launched).containsExactlyInAnyOrder("c", "d");
    assertThat(said).anyMatch(l -> l.contains("finished (SUCCEEDED): 2 tasks added, 0 removed, 0 changed"));
    JournalView view = JournalView.read(workdir());
    assertThat(view.replay().run().status()).contains(RunStatus.SUCCEEDED);
    assertThat(view.replay().revisions()).extracting(Revision::added, Revision::removed, Revision::summary)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(2, 0, "2 tasks added, 0 removed, 0 changed"));
    assertThat(view.report(view.replay().run().finishedAt().orElseThrow()).totals().succeeded()).isEqualTo(4);
    assertThat(Files.readString(workdir().resolve("report.json"))).contains("\"revisions\"")
        .contains("2 tasks added, 0 removed, 0 changed");
  }

  @Test
  void aFinishedRunWhoseTasksChangedIsRefusedUnlessTheChangeIsAllowed() throws Exception {
    finishedWith(run(16, "b"), "a", "b");
    RunSpec changed = run(32, "b", "c");

    assertThatThrownBy(() -> LocalSession.open(options(changed, new FakeExecutor(), new Seen()).build()))
        .isInstanceOfSatisfying(SessionException.class,
            e -> assertThat(e.reason()).isEqualTo(SessionException.Reason.SPEC_CHANGED))
        .hasMessageContaining("1 task added, 0 removed, 1 changed")
        .hasMessageContaining("g: memory: 16 MiB -> 32 MiB in 1 task: a");
    assertThatThrownBy(() -> LocalSession.open(options(changed, new FakeExecutor(), new Seen())
        .specChange(SpecChange.STORED).build()))
        .isInstanceOfSatisfying(RunFinishedException.class,
            e -> assertThat(e.unapplied()).contains("1 task added, 0 removed, 1 changed"));
    FakeExecutor executor = new FakeExecutor();
    Seen seen = new Seen();
    assertThat(runToTheEnd(options(changed, executor, seen).specChange(SpecChange.NEW), executor, seen, "c"))
        .containsExactly("c");
  }

  @Test
  void aTaskTheRunGainedIsOneBerthRetryCanNameBeforeItEverRan() throws Exception {
    finishedWith(run(16, "b"), "a", "b");
    LocalSession.open(options(run(16, "b", "c"), new FakeExecutor(), new Seen()).build()).close(); // stopped at once
    FakeExecutor executor = new FakeExecutor();
    Seen seen = new Seen();

    List<String> launched = runToTheEnd(options(run(16, "b", "c"), executor, seen).spec(null)
        .retry(new RetrySelection(List.of("c"), false, false)), executor, seen, "c");

    assertThat(launched).containsExactly("c");
  }

  @Test
  void aFinishedRunGivenItsOwnSpecIsFinishedAlready() throws Exception {
    finishedWith(run(16, "b"), "a", "b");

    assertThatThrownBy(() -> LocalSession.open(options(run(16, "b"), new FakeExecutor(), new Seen()).build()))
        .isInstanceOfSatisfying(RunFinishedException.class, e -> assertThat(e.unapplied()).isEmpty());
  }
}
