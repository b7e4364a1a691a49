package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.RunState;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import dev.berth.testkit.TaskSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteJournalTest {

  private static final TaskId A = TaskId.of("a");
  private static final Instant T0 = Instant.parse("2024-05-01T10:00:00.5Z");

  @TempDir Path dir;

  private Path db() {
    return dir.resolve("journal.db");
  }

  @Test
  void aNewJournalUsesWalNormalSyncForeignKeysAndBerthsApplicationId() throws Exception {
    try (SqliteJournal journal = SqliteJournal.create(db())) {
      assertThat(pragma(journal.connection(), "journal_mode")).isEqualTo("wal");
      assertThat(pragma(journal.connection(), "synchronous")).as("the journal syncs its log itself").isEqualTo("1");
      assertThat(pragma(journal.connection(), "foreign_keys")).isEqualTo("1");
      assertThat(pragma(journal.connection(), "application_id")).isEqualTo(Integer.toString(Schema.APPLICATION_ID));
    }
    try (SqliteJournal journal = SqliteJournal.open(db(), Durability.NORMAL)) {
      assertThat(pragma(journal.connection(), "journal_mode")).isEqualTo("wal");
      assertThat(pragma(journal.connection(), "synchronous")).isEqualTo("1");
    }
  }

  @Test
  void aCreateThatWasKilledHalfwayLeavesNoJournalAndTheNextCreateReplacesWhatItLeft() throws Exception {
    Files.writeString(dir.resolve("journal.db.new"), "half a database");
    Files.writeString(dir.resolve("journal.db.new-wal"), "a stale log");

    try (SqliteJournal journal = SqliteJournal.create(db())) {
      journal.start("r", "{}", T0);
    }

    assertThat(dir.resolve("journal.db.new")).doesNotExist();
    assertThat(dir.resolve("journal.db.new-wal")).doesNotExist();
    try (JournalReader reader = JournalReader.open(db())) {
      assertThat(reader.read().orElseThrow().run().name()).isEqualTo("r");
    }
  }

  @Test
  void createMakesTheFolderAndRefusesAnExistingFile() throws Exception {
    Path nested = dir.resolve("run/.berth/journal.db");
    SqliteJournal.create(nested).close();

    assertThatThrownBy(() -> SqliteJournal.create(nested))
        .isInstanceOf(JournalException.class)
        .hasMessage(nested + ": already exists; open it to resume its run, or remove it");
  }

  @Test
  void aMissingFileIsNamed() {
    assertThatThrownBy(() -> SqliteJournal.open(db())).hasMessage(db() + ": no such file");
    assertThatThrownBy(() -> JournalReader.open(db())).hasMessage(db() + ": no such file");
    assertThat(db()).doesNotExist();
  }

  @Test
  void anEmptyFileIsNotAJournal() throws Exception {
    Files.createFile(db());

    assertThatThrownBy(() -> SqliteJournal.open(db())).hasMessage(db() + ": not a Berth journal: the file is empty");
  }

  @Test
  void garbageIsNotASqliteDatabaseAndIsLeftAlone() throws Exception {
    byte[] garbage = "this is a text file, not a database\n".repeat(300).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Files.write(db(), garbage);

    assertThatThrownBy(() -> SqliteJournal.open(db()))
        .isInstanceOf(JournalException.class)
        .hasMessage(db() + ": not a Berth journal: not a SQLite database (or an encrypted or corrupt one)");
    assertThatThrownBy(() -> JournalReader.open(db()))
        .hasMessage(db() + ": not a Berth journal: not a SQLite database (or an encrypted or corrupt one)");
    assertThat(Files.readAllBytes(db())).isEqualTo(garbage);
  }

  @Test
  void aTruncatedJournalIsReportedAsCorrupt() throws Exception {
    writeEvents(db(), 3000);
    long size = Files.size(db());
    try (var channel = java.nio.channels.FileChannel.open(db(), java.nio.file.StandardOpenOption.WRITE)) {
      channel.truncate(size / 2);
    }

    assertThatThrownBy(() -> SqliteJournal.open(db()))
        .isInstanceOf(JournalException.class)
        .hasMessageStartingWith(db() + ": the database is corrupt")
        .message().doesNotContain("\n");
    assertThatThrownBy(() -> {
      try (JournalReader reader = JournalReader.open(db())) {
        reader.read();
      }
    }).isInstanceOf(JournalException.class).hasMessageStartingWith(db() + ": the database is corrupt");
  }

  @Test
  void aJournalCutInsideItsHeaderIsReportedAsCorrupt() throws Exception {
    writeEvents(db(), 10);
    try (var channel = java.nio.channels.FileChannel.open(db(), java.nio.file.StandardOpenOption.WRITE)) {
      channel.truncate(50);
    }

    assertThatThrownBy(() -> SqliteJournal.open(db())).isInstanceOf(JournalException.class)
        .hasMessage(db() + ": the database is corrupt or truncated (SQLite: database disk image is malformed)");
  }

  @Test
  void anotherProgramsDatabaseIsNotAJournal() throws Exception {
    sql(db(), "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)");

    assertThatThrownBy(() -> SqliteJournal.open(db())).hasMessage(
        db() + ": not a Berth journal: a SQLite database without Berth's tables (another program's?)");
    assertThatThrownBy(() -> JournalReader.open(db())).hasMessage(
        db() + ": not a Berth journal: a SQLite database without Berth's tables (another program's?)");
  }

  @Test
  void anEmptySqliteDatabaseIsNotAJournal() throws Exception {
    sql(db(), "PRAGMA user_version = 7");

    assertThatThrownBy(() -> SqliteJournal.open(db()))
        .hasMessage(db() + ": not a Berth journal: an empty SQLite database");
  }

  @Test
  void aNewJournalHoldsItsSchemaVersionItsRunAndItsEventsAndNoOtherTable() throws Exception {
    SqliteJournal.create(db()).close();

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db()); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")) {
      List<String> tables = new ArrayList<>();
      while (rs.next()) {
        tables.add(rs.getString(1));
      }
      assertThat(tables).containsExactly("berth_schema", "event", "run");
    }
    assertThat(schemaVersion()).isEqualTo(4);
  }

  @Test
  void aNewerSchemaVersionIsRefusedByWriterAndReader() throws Exception {
    SqliteJournal.create(db()).close();
    sql(db(), "UPDATE berth_schema SET version = 5");
    String message = db() + ": journal schema version 5 is newer than this Berth reads (4); use the Berth that wrote"
        + " it or a newer one";

    assertThatThrownBy(() -> SqliteJournal.open(db())).hasMessage(message);
    assertThatThrownBy(() -> JournalReader.open(db())).hasMessage(message);
  }

  @Test
  void aVersionOneJournalIsReadAsItIsAndRaisedToTheCurrentVersionOnlyWhenOpenedForWriting() throws Exception {
    SqliteJournal.create(db()).close();
    sql(db(), "UPDATE berth_schema SET version = 1");

    JournalReader.open(db()).close();
    assertThat(schemaVersion()).isEqualTo(1);
    SqliteJournal.open(db()).close();
    assertThat(schemaVersion()).isEqualTo(4);
  }

  @Test
  void aVersionTwoJournalKeepsItsEventsAndTakesNewOnesBesideThemOnceRaised() throws Exception {
    SqliteJournal.create(db()).close();
    sql(db(), "ALTER TABLE event DROP COLUMN at");
    sql(db(), "UPDATE berth_schema SET version = 2");
    sql(db(), "INSERT INTO run (id, name, spec_json, spec_sha256, started_at) VALUES (1, 'r', '{}', '"
        + "0".repeat(64) + "', '" + T0 + "')");
    TaskEvent old = new TaskEvent.Settled(T0, TaskState.CANCELLED, "by the user");
    sql(db(), "INSERT INTO event (seq, run_id, task, type, json) VALUES (1, 1, 'a', 'settled', '"
        + EventCodec.encode(old) + "')");

    try (JournalReader reader = JournalReader.open(db())) {
      assertThat(reader.read().orElseThrow().events()).extracting(Journal.Entry::event).containsExactly(old);
    }
    TaskEvent later = new TaskEvent.Released(T0.plusSeconds(1));
    try (SqliteJournal journal = SqliteJournal.open(db())) {
      journal.append(A, later);
      journal.flush();
    }
    try (JournalReader reader = JournalReader.open(db())) {
      assertThat(reader.read().orElseThrow().events()).extracting(Journal.Entry::event).containsExactly(old, later);
    }
    assertThat(schemaVersion()).isEqualTo(4);
  }

  @Test
  void theRunsEndLeavesNoFreedPagesOfTheSpecItRewrote() throws Exception {
    String spec = "{\"groups\":\"" + "x".repeat(100_000) + "\"}";
    try (SqliteJournal journal = SqliteJournal.create(db())) {
      journal.start("r", spec, T0);
      journal.append(A, new TaskEvent.Released(T0));
      journal.finish(dev.berth.core.report.RunStatus.SUCCEEDED, T0.plusSeconds(1));
      journal.flush();
    }

    assertThat(count("PRAGMA auto_vacuum")).isEqualTo(2);
    assertThat(count("PRAGMA freelist_count")).as("the spec's old pages went back").isZero();
  }

  @Test
  void releasesOfOneInstantShareOneRowAndReadBackAsOneEventPerTask() throws Exception {
    try (SqliteJournal journal = SqliteJournal.create(db())) {
      journal.start("r", "{}", T0);
      for (String task : new String[] {"t1", "t2", "t3"}) {
        journal.append(TaskId.of(task), new TaskEvent.Released(T0));
      }
      journal.append(TaskId.of("t4"), new TaskEvent.Released(T0.plusNanos(1)));
      journal.append(TaskId.of("t1"), new TaskEvent.Settled(T0, TaskState.CANCELLED, "by the user"));
      journal.flush();
    }

    assertThat(count("SELECT count(*) FROM event")).isEqualTo(3);
    try (JournalReader reader = JournalReader.open(db())) {
      assertThat(reader.read().orElseThrow().events())
          .extracting(e -> e.seq() + " " + e.task().value() + " " + EventCodec.type(e.event()))
          .containsExactly("1 t1 released", "1 t2 released", "1 t3 released", "2 t4 released", "3 t1 settled");
    }
  }

  private int count(String query) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db()); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private int schemaVersion() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db()); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version FROM berth_schema")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void anUnknownSchemaVersionIsRefused() throws Exception {
    SqliteJournal.create(db()).close();
    sql(db(), "UPDATE berth_schema SET version = 0");

    assertThatThrownBy(() -> SqliteJournal.open(db()))
        .hasMessage(db() + ": unknown journal schema version 0 (this Berth reads 1 to 4)");
  }

  @Test
  void anEventThatCannotBeDecodedIsNamedBySequenceNumber() throws Exception {
    writeEvents(db(), 2);
    sql(db(), "UPDATE event SET type = 'paused', json = '{}' WHERE seq = 2");

    try (JournalReader reader = JournalReader.open(db())) {
      assertThatThrownBy(reader::read).hasMessageStartingWith(
          db() + ": damaged Berth journal: event 2 cannot be read: type must be released, launched");
    }
  }

  @Test
  void theReaderSeesWholeFlushesWhileTheWriterRuns() throws Exception {
    try (SqliteJournal writer = SqliteJournal.create(db()); JournalReader reader = JournalReader.open(db())) {
      assertThat(reader.read()).isEmpty();
      writer.start("r", "{}", T0);
      writer.append(A, new TaskEvent.Released(T0));
      writer.flush();

      assertThat(reader.read().orElseThrow().events()).hasSize(1);

      writer.append(A, new TaskEvent.Released(T0.plusSeconds(1)));
      writer.append(A, new TaskEvent.Released(T0.plusSeconds(2)));
      assertThat(reader.eventsAfter(1)).isEmpty();
      writer.flush();

      assertThat(reader.eventsAfter(1)).extracting(Journal.Entry::seq).containsExactly(2L, 3L);
    }
  }

  @Test
  void theReaderOpensAJournalWhoseWriterIsGone() throws Exception {
    writeEvents(db(), 5);

    try (JournalReader reader = JournalReader.open(db())) {
      assertThat(reader.read().orElseThrow().events()).hasSize(5);
    }
  }

  @Test
  void theStoredSpecRebuildsTheRunStateWithTheCoresFold() throws Exception {
    RunSpec spec = TaskSpecs.run("r").group("g", TaskSpecs.task("a").build(), TaskSpecs.task("b").build()).build();
    try (SqliteJournal writer = SqliteJournal.create(db())) {
      writer.start(spec.name(), SpecCodec.encode(spec), T0);
      writer.append(A, new TaskEvent.Released(T0));
      writer.append(A, new TaskEvent.Settled(T0, TaskState.CANCELLED, "no longer wanted"));
    }

    try (JournalReader reader = JournalReader.open(db())) {
      Journal.Replay replay = reader.read().orElseThrow();
      RunState state = JournalReader.state(replay);

      assertThat(state.spec()).isEqualTo(spec);
      assertThat(state.task(A).state()).isEqualTo(TaskState.CANCELLED);
      assertThat(state.task(TaskId.of("b")).state()).isEqualTo(TaskState.QUEUED);
      assertThat(replay.run().specSha256()).isEqualTo(Journal.RunInfo.sha256(SpecCodec.encode(spec)));
    }
  }

  @Test
  void aGrownSpecIsSeenByTheReaderAndRebuildsTheGrownRunStateWithoutAnotherSchemaVersion() throws Exception {
    RunSpec first = TaskSpecs.run("r").group("g", TaskSpecs.task("a").build()).build();
    RunSpec grown = TaskSpecs.run("r").group("g", TaskSpecs.task("a").build())
        .group("h", TaskSpecs.task("b").build()).build();
    try (SqliteJournal writer = SqliteJournal.create(db()); JournalReader reader = JournalReader.open(db())) {
      writer.start(first.name(), SpecCodec.encode(first), T0);
      writer.updateSpec(SpecCodec.encode(grown));
      writer.append(TaskId.of("b"), new TaskEvent.Released(T0));

      assertThat(reader.read().orElseThrow().run().specJson()).isEqualTo(SpecCodec.encode(first));
      writer.flush();

      Journal.Replay replay = reader.read().orElseThrow();
      assertThat(replay.run().specSha256()).isEqualTo(Journal.RunInfo.sha256(SpecCodec.encode(grown)));
      RunState state = JournalReader.state(replay);
      assertThat(state.spec()).isEqualTo(grown);
      assertThat(state.task(TaskId.of("b")).state()).isEqualTo(TaskState.READY);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version FROM berth_schema")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(Schema.VERSION);
    }
  }

  @Test
  void aSpecUpdateMustBeJson() throws Exception {
    try (SqliteJournal journal = SqliteJournal.create(db())) {
      journal.start("r", "{}", T0);

      assertThatThrownBy(() -> journal.updateSpec("{\"name\":"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("the spec is not JSON: ");
      journal.flush();
      assertThat(journal.replay().orElseThrow().run().specJson()).isEqualTo("{}");
    }
  }

  private static void writeEvents(Path db, int count) throws Exception {
    try (SqliteJournal journal = SqliteJournal.create(db)) {
      journal.start("r", "{}", T0);
      for (int i = 0; i < count; i++) {
        journal.append(TaskId.of("t" + i), new TaskEvent.Settled(T0, TaskState.CANCELLED, "reason " + "x".repeat(200)));
      }
    }
  }

  private static String pragma(Connection c, String name) throws Exception {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static void sql(Path db, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
