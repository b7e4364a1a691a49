package dev.berth.testkit;

import dev.berth.spi.Journal;

/** The memory journal keeps what was flushed across a crash ({@link MemoryJournal#reopen()}), a resume and a retry. */
class MemoryJournalReopenContractTest extends JournalReopenContractTest {

  @Override
  protected Journal newJournal() {
    return new MemoryJournal();
  }

  @Override
  protected Journal reopen(Journal journal) {
    return ((MemoryJournal) journal).reopen();
  }
}
