package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.spi.JournalException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal whose write-ahead log was cut short or lost would open as an earlier point of its run;
 * the commit mark beside it makes that an error instead.
 */
class CommitMarkTest {

  private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");

  @TempDir Path dir;

  /** A journal of 40 flushes, copied while its writer still holds it, as a crash would leave it. */
  private Path crashedCopy() throws Exception {
    Path live = dir.resolve("live/journal.db");
    SqliteJournal journal = SqliteJournal.create(live);
    journal.start("r", "{}", T0);
    for (int i = 1; i <= 40; i++) {
      journal.append(TaskId.of("t" + i), new TaskEvent.Released(T0.plusSeconds(i)));
      journal.flush();
    }
    Path copy = Files.createDirectories(dir.resolve("crashed")).resolve("journal.db");
    for (String suffix : new String[] {"", "-wal", ".committed"}) {
      Files.copy(live.resolveSibling("journal.db" + suffix), copy.resolveSibling("journal.db" + suffix));
    }
    journal.close();
    return copy;
  }

  @Test
  void everyFlushThatAddsEventsRecordsItsLastSequenceNumber() throws Exception {
    Path copy = crashedCopy();

    assertThat(CommitMark.read(copy)).hasValue(40);
    try (SqliteJournal reopened = SqliteJournal.open(copy)) {
      assertThat(reopened.replay().orElseThrow().lastSeq()).isEqualTo(40);
    }
  }

  @Test
  void aWriteAheadLogCutInHalfIsRefusedInsteadOfResumingAnEarlierPoint() throws Exception {
    Path copy = crashedCopy();
    Path wal = copy.resolveSibling("journal.db-wal");
    try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
      f.setLength(f.length() / 2);
    }

    assertThatThrownBy(() -> SqliteJournal.open(copy))
        .isInstanceOf(JournalException.class)
        .hasMessageContaining("but event 40 was committed")
        .hasMessageContaining("journal.db-wal")
        .hasMessageNotContaining("\n")
        .matches(e -> ((JournalException) e).missesCommits());
  }

  @Test
  void aLostWriteAheadLogIsRefused() throws Exception {
    Path copy = crashedCopy();
    Files.delete(copy.resolveSibling("journal.db-wal"));

    assertThatThrownBy(() -> SqliteJournal.open(copy)).hasMessageContaining("the journal ends at event 0");
  }

  @Test
  void aJournalWithoutAMarkOpensAsBefore() throws Exception {
    Path copy = crashedCopy();
    Files.delete(CommitMark.of(copy));

    try (SqliteJournal reopened = SqliteJournal.open(copy)) {
      assertThat(reopened.replay().orElseThrow().events()).hasSize(40);
    }
  }

  @Test
  void aNewJournalInThePlaceOfAnOldOneDropsTheOldMark() throws Exception {
    Path db = dir.resolve("journal.db");
    Files.writeString(CommitMark.of(db), "99\n");

    try (SqliteJournal journal = SqliteJournal.create(db)) {
      journal.start("r", "{}", T0);
    }

    assertThat(CommitMark.of(db)).doesNotExist();
    try (SqliteJournal reopened = SqliteJournal.open(db)) {
      assertThat(reopened.replay()).isPresent();
    }
  }
}
