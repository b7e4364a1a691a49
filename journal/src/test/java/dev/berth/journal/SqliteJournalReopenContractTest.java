package dev.berth.journal;

import dev.berth.spi.Journal;
import dev.berth.testkit.JournalReopenContractTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite journal keeps what was flushed across a crash, a resume and a retry, as every journal must. */
class SqliteJournalReopenContractTest extends JournalReopenContractTest {

  @TempDir Path dir;

  @Override
  protected Journal newJournal() throws Exception {
    return SqliteJournal.create(dir.resolve("journal.db"));
  }

  @Override
  protected Journal reopen(Journal journal) throws Exception {
    return SqliteJournalContractTest.crashAndReopen(journal);
  }
}
