package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.PoolKeys;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.pool.WorkerScheme;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import dev.berth.protocol.pool.EngineHelper;
import dev.berth.spec.SpecLoader;
import dev.berth.spi.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal written by the Berth that sent a call task to its pool through the variables
 * {@code BERTH_POOL} and {@code BERTH_POOL_SETTINGS} in its env ({@code journal-pool-env/}, whose
 * {@code fixture.yaml} says what it holds): its tasks read back carrying their pool instead, equal to
 * the tasks the spec file gives today, and the run resumes.
 */
class PoolEnvJournalFixtureTest {

  private static final Path FIXTURES = Path.of("src/test/resources/journal-pool-env");
  private static final List<SettingsTable<?, ?>> ADAPTERS = RandomSpecs.ADAPTERS;
  private static final PoolSpec FAST = PoolSpec.builder("fast").set(PoolKeys.SETUP, "mymodel:warm")
      .set(PoolKeys.SIZE, 2).set(PoolKeys.HWM, 4).set(PoolKeys.RECYCLE_AFTER, 100)
      .set(PoolKeys.SCHEME, WorkerScheme.LRU).set(PoolKeys.MEMORY, 1L << 30).build();

  @TempDir Path dir;

  /** The stored text with this machine's helper file and the fixture's folder, which it holds as placeholders. */
  private static String onThisMachine(String stored) {
    return stored.replace("@ENGINE@", EngineHelper.file().toString())
        .replace("@SPEC_DIR@", FIXTURES.toAbsolutePath().normalize().toString());
  }

  private static RunSpec stored() throws Exception {
    return SpecCodec.decode(onThisMachine(Files.readString(FIXTURES.resolve("spec.json")).strip()), ADAPTERS);
  }

  private static TaskSpec task(RunSpec run, String id) {
    return run.tasks().stream().filter(t -> t.id().value().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void eachCallReadsBackCarryingItsPoolAndAnEnvWithoutThePoolVariables() throws Exception {
    RunSpec run = stored();

    assertThat(Files.readString(FIXTURES.resolve("spec.json"))).contains("\"BERTH_POOL\":\"fast\"");
    for (String sweep : List.of("fit-0.1", "fit-0.01", "fit-0.001")) {
      assertThat(task(run, sweep).get(TaskKeys.POOL)).as(sweep).isEqualTo(FAST);
      assertThat(task(run, sweep).env()).as(sweep).isEmpty();
    }
    assertThat(task(run, "tuned").get(TaskKeys.POOL)).isEqualTo(PoolSpec.named("plain"));
    assertThat(task(run, "tuned").env()).containsExactly(Map.entry("SEED", "3"));
    assertThat(task(run, "alone").get(TaskKeys.POOL)).isNull();
    assertThat(task(run, "fit-0.01").get(TaskKeys.POOL)).as("a sweep's tasks share their pool")
        .isSameAs(task(run, "fit-0.1").get(TaskKeys.POOL));
  }

  @Test
  void theSpecFileGivenAgainReadsAsTheSameTasksAndIsSeenAsUnchanged() throws Exception {
    RunSpec now = SpecLoader.load(FIXTURES.resolve("fixture.yaml"), null, null, ADAPTERS);

    assertThat(stored()).isEqualTo(OldJournalFixtureTest.underFormerDefaults(now));
    assertThat(SpecDiff.between(stored(), now, ADAPTERS)).isEmpty();
  }

  @Test
  void theStoredSpecIsWrittenAgainWithThePoolKeyInPlaceOfTheVariables() throws Exception {
    String again = SpecCodec.encode(stored(), ADAPTERS);

    assertThat(again).doesNotContain("BERTH_POOL").contains("\"pool\":{\"gpu-memory\":0,\"hwm\":4,\"memory\":1073741824,"
        + "\"name\":\"fast\",\"recycle-after\":100,\"recycle-memory\":0,\"scheme\":\"lru\",\"setup\":\"mymodel:warm\","
        + "\"size\":2}");
    assertThat(SpecCodec.decode(again, ADAPTERS)).isEqualTo(stored());
  }

  @Test
  void theStartedRunResumesWithItsPoolsTakesNewEventsAndEnds() throws Exception {
    Path db = dir.resolve("started.db");
    Files.copy(FIXTURES.resolve("started.db"), db);
    TaskId fit = TaskId.of("fit-0.1");
    Instant at = Instant.parse("2026-11-28T10:00:00Z");
    try (SqliteJournal journal = SqliteJournal.open(db)) {
      journal.append(fit, new TaskEvent.Ended(at, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
      journal.finish(RunStatus.SUCCEEDED, at.plusSeconds(1));
    }
    try (JournalReader reader = JournalReader.open(db)) {
      Journal.Replay replay = reader.read().orElseThrow();
      RunState state = JournalReader.state(replay, ADAPTERS);
      RunSpec now = SpecLoader.load(FIXTURES.resolve("fixture.yaml"), null, null, ADAPTERS);

      assertThat(replay.run().status()).contains(RunStatus.SUCCEEDED);
      assertThat(state.task(fit).state()).isEqualTo(TaskState.SUCCEEDED);
      assertThat(state.task(fit).history().attemptCount()).isEqualTo(1);
      assertThat(state.task(fit).spec().get(TaskKeys.POOL)).isEqualTo(FAST);
      assertThat(SpecDiff.between(SpecCodec.decode(onThisMachine(replay.run().specJson()), ADAPTERS), now, ADAPTERS))
          .isEmpty();
    }
  }
}
