package dev.berth.journal;

import dev.berth.spi.Journal;
import dev.berth.testkit.JournalContractTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite journal keeps the journal contract; a crash drops its buffer and closes its connection. */
class SqliteJournalContractTest extends JournalContractTest {

  @TempDir Path dir;

  @Override
  protected Journal newJournal() throws Exception {
    return SqliteJournal.create(dir.resolve("journal.db"));
  }

  @Override
  protected Journal reopen(Journal journal) throws Exception {
    return crashAndReopen(journal);
  }

  /** Drops what {@code journal} buffered, closes its connection and opens its file again, as a new process would. */
  static Journal crashAndReopen(Journal journal) throws Exception {
    SqliteJournal sqlite = (SqliteJournal) journal;
    sqlite.abandon();
    return SqliteJournal.open(sqlite.file());
  }
}
