package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.Revision;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.spec.SpecLoader;
import dev.berth.spi.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Journals written by Berth 0.1, checked in with their spec ({@code journal-0.1/fixture.yaml}, whose
 * header says how they were made): a run killed while a task ran, and the same run resumed and
 * ended. The expected states, attempts and events are what Berth 0.1 itself read from them.
 */
class OldJournalFixtureTest {

  private static final Path FIXTURES = Path.of("src/test/resources/journal-0.1");
  private static final Instant STARTED = Instant.parse("2026-11-24T07:00:27.726213489Z");
  private static final String SPEC_SHA256 = "8169b6ef43e58b1e148ee26831fff0f38dddc001a6563995125c8cb7e629a934";

  @TempDir Path dir;

  /** Each task's state and number of attempts after the fold, as Berth 0.1 showed them. */
  private static Map<String, String> expectedUnfinished() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("make-data", TaskState.SUCCEEDED + " 1");
    m.put("train-0.1-1", TaskState.SUCCEEDED + " 1");
    m.put("train-0.1-2", TaskState.SUCCEEDED + " 1");
    m.put("train-0.01-1", TaskState.SUCCEEDED + " 1");
    m.put("train-0.01-2", TaskState.SUCCEEDED + " 1");
    m.put("flaky", TaskState.SUCCEEDED + " 2");
    m.put("broken", TaskState.FAILED + " 2");
    m.put("fit", TaskState.SUCCEEDED + " 1");
    m.put("slow", TaskState.TIMED_OUT + " 1");
    m.put("summary", TaskState.SUCCEEDED + " 1");
    m.put("after-broken", TaskState.UNREACHABLE + " 0");
    m.put("cancel-me", TaskState.CANCELLED + " 1");
    m.put("still-running", TaskState.RUNNING + " 1");
    return m;
  }

  private Path copy(String name) throws Exception {
    Path db = dir.resolve(name);
    Files.copy(FIXTURES.resolve(name), db);
    return db;
  }

  @Test
  void theJournalOfARunKilledMidwayReplaysToTheStatesAndAttemptsItRecorded() throws Exception {
    try (SqliteJournal journal = SqliteJournal.open(copy("unfinished.db"))) {
      Journal.Replay replay = journal.replay().orElseThrow();

      assertThat(replay.run().name()).isEqualTo("fixture");
      assertThat(replay.run().startedAt()).isEqualTo(STARTED);
      assertThat(replay.run().specSha256()).isEqualTo(SPEC_SHA256);
      assertThat(replay.run().status()).isEmpty();
      assertThat(replay.events()).hasSize(47);
      assertThat(replay.events()).extracting(Journal.Entry::seq).containsExactlyElementsOf(seqs(47));
      assertThat(typeCounts(replay)).isEqualTo(new TreeMap<>(Map.of(
          "ended", 13L, "launched", 14L, "released", 12L, "reported", 1L, "settled", 1L, "staged", 4L, "trained", 2L)));
      assertThat(states(JournalReader.state(replay, RandomSpecs.ADAPTERS))).containsExactlyEntriesOf(expectedUnfinished());
    }
  }

  @Test
  void theTwoStageTasksTrainsOnASimulatedGpuAndItsOutOfMemoryReportAreRead() throws Exception {
    try (JournalReader reader = JournalReader.open(copy("unfinished.db"))) {
      RunState state = JournalReader.state(reader.read().orElseThrow(), RandomSpecs.ADAPTERS);
      List<TaskEvent> fit = state.task(TaskId.of("fit")).history().events();

      assertThat(fit).filteredOn(TaskEvent.Trained.class::isInstance).extracting(e -> ((TaskEvent.Trained) e).placement())
          .containsExactly(new Placement("cuda:0", 0, 0, 2L << 30), new Placement("cuda:0", 0, 0, 3L << 30));
      assertThat(fit).filteredOn(TaskEvent.Reported.class::isInstance).singleElement()
          .isEqualTo(new TaskEvent.Reported(Instant.parse("2026-11-24T07:00:28.995218085Z"), Outcome.GPU_OOM, "TRAIN",
              "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (demo)"));
      assertThat(fit.get(1)).isEqualTo(new TaskEvent.Launched(Instant.parse("2026-11-24T07:00:28.394166658Z"), 1,
          new Placement("cpu", 32L << 20, 1000, 0), -1, true));
      assertThat(state.task(TaskId.of("slow")).history().events()).last().isEqualTo(new TaskEvent.Ended(
          Instant.parse("2026-11-24T07:00:29.408550947Z"), Outcome.TIMED_OUT, 143,
          "ran longer than its timeout of 1.0s", TaskState.TIMED_OUT));
      assertThat(state.task(TaskId.of("after-broken")).history().finalReason())
          .contains("needs broken succeeded, but broken failed");
    }
  }

  @Test
  void theJournalOfTheResumedRunHoldsItsEndAndTheInterruptedAttempt() throws Exception {
    try (JournalReader reader = JournalReader.open(copy("finished.db"))) {
      Journal.Replay replay = reader.read().orElseThrow();

      assertThat(replay.run().status()).contains(RunStatus.FAILED);
      assertThat(replay.run().finishedAt()).contains(Instant.parse("2026-11-24T07:01:27.423133732Z"));
      assertThat(replay.run().specSha256()).isEqualTo(SPEC_SHA256);
      assertThat(replay.events()).hasSize(50);
      Map<String, String> expected = expectedUnfinished();
      expected.put("still-running", TaskState.CANCELLED + " 2");
      assertThat(states(JournalReader.state(replay, RandomSpecs.ADAPTERS))).containsExactlyEntriesOf(expected);
      assertThat(reader.eventsAfter(47)).extracting(e -> e.event().getClass().getSimpleName())
          .containsExactly("Ended", "Launched", "Ended");
      assertThat(((TaskEvent.Ended) replay.events().get(47).event()).outcome()).isEqualTo(Outcome.INTERRUPTED);
    }
  }

  @Test
  void theStoredSpecAndEventsAreWrittenAgainByteForByte() throws Exception {
    for (String name : List.of("unfinished.db", "finished.db")) {
      Path db = copy(name);
      String spec = sql(db, "SELECT spec_json FROM run").get(0);
      List<String> events = sql(db, "SELECT json FROM event ORDER BY seq");

      assertThat(SpecCodec.encode(SpecCodec.decode(spec, RandomSpecs.ADAPTERS), RandomSpecs.ADAPTERS)).as(name)
          .isEqualTo(TodaysSpec.of(spec));
      assertThat(Journal.RunInfo.sha256(spec)).isEqualTo(SPEC_SHA256);
      for (String event : events) {
        assertThat(EventCodec.encode(EventCodec.decode(event))).isEqualTo(withTodaysStateNames(event));
      }
    }
  }

  /** The spec with every task its own template, as a journal written before templates has it. */
  /** The spec as the Berth that wrote the fixtures read it: its default placement was best-fit, its slurm.poll-max 5s. */
  static RunSpec underFormerDefaults(RunSpec spec) {
    RunSpec placed = spec.withConfig(spec.config().toBuilder()
        .set(dev.berth.core.model.SchedulerKeys.PLACEMENT, dev.berth.core.gpu.PlacementPolicyName.BEST_FIT).build());
    dev.berth.slurm.SlurmConfig slurm = placed.adapters().get("slurm").map(dev.berth.slurm.SlurmConfig.class::cast)
        .orElse(dev.berth.slurm.SlurmConfig.DEFAULTS);
    return placed.withAdapters(placed.adapters().with("slurm",
        slurm.toBuilder().set(dev.berth.slurm.SlurmKeys.POLL_MAX, java.time.Duration.ofSeconds(5)).build()));
  }

  private static RunSpec ownTemplates(RunSpec spec) {
    List<dev.berth.core.model.GroupSpec> groups = spec.groups().stream().map(g -> new dev.berth.core.model.GroupSpec(
        g.name(), g.tasks().stream().map(t -> t.toBuilder().template(t.id().value()).build()).toList())).toList();
    return new RunSpec(spec.name(), spec.workdir(), spec.config(), groups, spec.groupsInParallel(), spec.gpus(),
        spec.reporting(), spec.adapters());
  }

  @Test
  void theSpecFileGivenAgainUnchangedIsSeenAsUnchanged() throws Exception {
    RunSpec now = SpecLoader.load(FIXTURES.resolve("fixture.yaml"), null, null, RandomSpecs.ADAPTERS);
    try (JournalReader reader = JournalReader.open(copy("unfinished.db"))) {
      RunSpec stored = SpecCodec.decode(reader.read().orElseThrow().run().specJson(), RandomSpecs.ADAPTERS);

      assertThat(SpecDiff.between(stored, now, RandomSpecs.ADAPTERS))
          .as("the placement and poll-max it stored were the defaults then, best-fit and 5s: not edits").isEmpty();
      now = underFormerDefaults(now);
      assertThat(ownTemplates(now)).isEqualTo(stored);
      assertThat(SpecCodec.encode(ownTemplates(now), RandomSpecs.ADAPTERS))
          .isEqualTo(TodaysSpec.of(reader.read().orElseThrow().run().specJson()));
    }
  }

  @Test
  void aResumedOldJournalTakesNewEventsAndTheRunsEnd() throws Exception {
    Path db = copy("unfinished.db");
    TaskId task = TaskId.of("still-running");
    Instant at = Instant.parse("2026-11-24T08:00:00Z");
    try (SqliteJournal journal = SqliteJournal.open(db)) {
      journal.append(task, new TaskEvent.Ended(at, Outcome.INTERRUPTED, null, "the scheduler stopped", TaskState.READY));
      journal.append(task, new TaskEvent.Launched(at, 2, new Placement("cpu", 16L << 20, 250, 0), 99, false));
      journal.append(task, new TaskEvent.Ended(at.plusSeconds(1), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
      journal.finish(RunStatus.FAILED, at.plusSeconds(2));
    }
    try (JournalReader reader = JournalReader.open(db)) {
      Journal.Replay replay = reader.read().orElseThrow();

      assertThat(replay.events()).hasSize(50);
      assertThat(replay.events().get(49).seq()).isEqualTo(50);
      assertThat(replay.run().status()).contains(RunStatus.FAILED);
      Map<String, String> expected = expectedUnfinished();
      expected.put("still-running", TaskState.SUCCEEDED + " 2");
      assertThat(states(JournalReader.state(replay, RandomSpecs.ADAPTERS))).containsExactlyEntriesOf(expected);
    }
  }

  @Test
  void anOldJournalHasNoRevisionsAndKeepsTheRevisionsItTakesInOrder() throws Exception {
    Path db = copy("finished.db");
    Instant at = Instant.parse("2026-11-24T08:00:00Z");
    try (JournalReader reader = JournalReader.open(db)) {
      assertThat(reader.read().orElseThrow().revisions()).isEmpty();
    }

    try (SqliteJournal journal = SqliteJournal.open(db)) {
      assertThat(journal.replay().orElseThrow().revisions()).isEmpty();
      journal.revise(new Revision(at, 3, 0, 0, "3 tasks added (seed=4), 0 removed, 0 changed"));
      journal.flush();
      journal.revise(new Revision(at.plusSeconds(60), 2, 1, 4, "2 tasks added (lr=0.001), 1 removed, 4 changed"));
    }

    try (JournalReader reader = JournalReader.open(db)) {
      Journal.Replay replay = reader.read().orElseThrow();
      assertThat(replay.revisions()).containsExactly(
          new Revision(at, 3, 0, 0, "3 tasks added (seed=4), 0 removed, 0 changed"),
          new Revision(at.plusSeconds(60), 2, 1, 4, "2 tasks added (lr=0.001), 1 removed, 4 changed"));
      assertThat(replay.run().status()).contains(RunStatus.FAILED);
      Map<String, String> expected = expectedUnfinished();
      expected.put("still-running", TaskState.CANCELLED + " 2");
      assertThat(states(JournalReader.state(replay, RandomSpecs.ADAPTERS))).containsExactlyEntriesOf(expected);
    }
  }

  @Test
  void anOldJournalWhoseResultAndItemTablesHoldRowsResumesAndKeepsThemAsTheyWere() throws Exception {
    Path db = copy("unfinished.db");
    update(db, "INSERT INTO result (run_id, task, key, json) VALUES (1, 'fit', 'acc', '0.9')");
    update(db, "INSERT INTO item (run_id, task, name, json) VALUES (1, 'fit', 'weights', '\"fit.pt\"')");
    TaskId task = TaskId.of("still-running");
    Instant at = Instant.parse("2026-11-24T08:00:00Z");

    try (SqliteJournal journal = SqliteJournal.open(db)) {
      assertThat(states(JournalReader.state(journal.replay().orElseThrow(), RandomSpecs.ADAPTERS)))
          .containsExactlyEntriesOf(expectedUnfinished());
      journal.append(task, new TaskEvent.Ended(at, Outcome.INTERRUPTED, null, "the scheduler stopped", TaskState.READY));
      journal.finish(RunStatus.FAILED, at.plusSeconds(1));
    }

    try (JournalReader reader = JournalReader.open(db)) {
      Journal.Replay replay = reader.read().orElseThrow();
      assertThat(replay.events()).hasSize(48);
      assertThat(replay.run().status()).contains(RunStatus.FAILED);
    }
    assertThat(sql(db, "SELECT task || ' ' || key || ' ' || json FROM result")).containsExactly("fit acc 0.9");
    assertThat(sql(db, "SELECT task || ' ' || name || ' ' || json FROM item")).containsExactly("fit weights \"fit.pt\"");
  }

  /** The event as Berth writes it now: 0.1's state names are read under their new names. */
  private static String withTodaysStateNames(String event) {
    Matcher m = Pattern.compile("\"target\":\"([A-Z_]+)\"").matcher(event);
    return m.find() ? m.replaceFirst("\"target\":\"" + TaskState.named(m.group(1)).name() + "\"") : event;
  }

  private static Map<String, String> states(RunState state) {
    Map<String, String> out = new LinkedHashMap<>();
    for (TaskRecord r : state.tasks()) {
      out.put(r.spec().id().value(), r.state() + " " + r.history().attemptCount());
    }
    return out;
  }

  private static TreeMap<String, Long> typeCounts(Journal.Replay replay) {
    TreeMap<String, Long> counts = new TreeMap<>();
    replay.events().forEach(e -> counts.merge(EventCodec.type(e.event()), 1L, Long::sum));
    return counts;
  }

  private static List<Long> seqs(int n) {
    List<Long> out = new ArrayList<>();
    for (long i = 1; i <= n; i++) {
      out.add(i);
    }
    return out;
  }

  private static void update(Path db, String statement) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.executeUpdate(statement);
    }
  }

  private static List<String> sql(Path db, String query) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      while (rs.next()) {
        rows.add(rs.getString(1));
      }
    }
    return rows;
  }
}
