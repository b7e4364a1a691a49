package dev.berth.testkit;

import dev.berth.spi.Journal;

/** The memory journal keeps the journal contract; a crash is {@link MemoryJournal#reopen()}. */
class MemoryJournalContractTest extends JournalContractTest {

  @Override
  protected Journal newJournal() {
    return new MemoryJournal();
  }

  @Override
  protected Journal reopen(Journal journal) {
    return ((MemoryJournal) journal).reopen();
  }
}
