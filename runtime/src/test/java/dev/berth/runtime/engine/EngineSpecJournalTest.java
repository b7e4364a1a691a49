package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.spi.Journal;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.MemoryJournal;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An open run's groups, submitted as it goes, reach its journal's spec, so that the run resumes with them. */
class EngineSpecJournalTest {

  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeExecutor executor = new FakeExecutor();
  private final FakeHostProbe probe = new FakeHostProbe().cpus(4).totalGiB(16).availableGiB(12).utilization(0.1);
  private final SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, MIB).build();
  /** A stand-in for SpecCodec (which this module does not see): each spec gets a name, kept here. */
  private final Map<String, RunSpec> encoded = new HashMap<>();
  private final Function<RunSpec, String> encoder = spec -> {
    String key = "spec-" + spec.groups().stream().map(GroupSpec::name).toList();
    encoded.put(key, spec);
    return key;
  };

  private static GroupSpec group(String name, String... ids) {
    return new GroupSpec(name, List.of(ids).stream()
        .map(id -> TaskSpec.builder(id, name).command("work", id).memoryBytes(64 * MIB).cpus(1).build()).toList());
  }

  private Engine openEngine(RunSpec spec) {
    return new Engine(spec, new RunLayout(dir), executor, probe, clock, clock, RunListener.NONE).keepOpen();
  }

  @Test
  void aSubmittedGroupReachesTheJournalsSpecInTheFlushOfItsFirstEvents() throws Exception {
    RunSpec empty = new RunSpec("s", dir.toString(), config, List.of(), true);
    MemoryJournal journal = new MemoryJournal();
    journal.start("s", encoder.apply(empty), clock.instant());
    Engine engine = openEngine(empty).journal(journal, encoder);
    engine.start();

    engine.submit(group("first", "a"));
    engine.submit(group("second", "b"));
    engine.drain();

    Journal.Replay replay = journal.replay().orElseThrow();
    assertThat(replay.run().specJson()).isEqualTo("spec-[first, second]");
    assertThat(replay.run().specSha256()).isEqualTo(Journal.RunInfo.sha256("spec-[first, second]"));
    assertThat(replay.events()).extracting(e -> e.task().value()).contains("a", "b");
    assertThat(journal.pending()).isZero();
  }

  @Test
  void aResumedOpenRunKnowsEveryGroupSubmittedBeforeTheCrashAndDoesNotRunFinishedTasksAgain() throws Exception {
    RunSpec empty = new RunSpec("s", dir.toString(), config, List.of(), true);
    MemoryJournal journal = new MemoryJournal();
    journal.start("s", encoder.apply(empty), clock.instant());
    Engine engine = openEngine(empty).journal(journal, encoder);
    engine.start();
    engine.submit(group("first", "a"));
    engine.drain();
    executor.exit(TaskId.of("a"), 0);
    engine.drain();
    engine.submit(group("second", "b"));
    engine.drain();

    MemoryJournal after = journal.reopen(); // the scheduler dies here
    Journal.Replay replay = after.replay().orElseThrow();
    RunSpec stored = encoded.get(replay.run().specJson());
    FakeExecutor second = new FakeExecutor();
    Engine resumed = new Engine(stored, new RunLayout(dir), second, probe, clock, clock, RunListener.NONE).keepOpen()
        .journal(after, encoder).resume(replay);
    resumed.start();

    assertThat(resumed.state().spec().groups()).extracting(GroupSpec::name).containsExactly("first", "second");
    assertThat(resumed.state().task(TaskId.of("a")).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(second.launched(TaskId.of("a"))).isEmpty();
    assertThat(resumed.state().task(TaskId.of("b")).history().attemptCount())
        .as("b's attempt that ran when the scheduler died ends as interrupted, and b runs again").isEqualTo(2);
    assertThat(after.replay().orElseThrow().events()).extracting(e -> e.event())
        .anyMatch(e -> e instanceof TaskEvent.Ended ended && ended.outcome().name().equals("INTERRUPTED"));
  }

  @Test
  void aJournalGivenWithoutAnEncoderKeepsTheSpecTheRunStartedWith() throws Exception {
    RunSpec empty = new RunSpec("s", dir.toString(), config, List.of(), true);
    MemoryJournal journal = new MemoryJournal();
    journal.start("s", "started", clock.instant());
    Engine engine = openEngine(empty).journal(journal);
    engine.start();

    engine.submit(group("first", "a"));
    engine.drain();

    assertThat(journal.replay().orElseThrow().run().specJson()).isEqualTo("started");
  }
}
